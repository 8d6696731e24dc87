import { html } from 'ghtml'
import type { SsoFailure } from '../sso/sso-error.ts'
import type { SsoOption } from '../sso/sso-options.ts'
import { layout } from './layout.view.ts'

/** Why a sign-in through the provider stopped: the provider's reasons, or a flow that is gone. */
export type SsoStop = SsoFailure | 'expired'

const WHY: Record<SsoStop, { status: number; text: string }> = {
  invalid: {
    status: 400,
    text: "The identity provider's answer did not pass its checks, so no one was signed in.",
  },
  refused: { status: 400, text: 'The identity provider did not sign you in.' },
  unverified_email: {
    status: 403,
    text: 'The identity provider did not give an email address it has verified, and Workgraph knows people by their verified email. Ask the administrator of your identity provider to verify it.',
  },
  unreachable: {
    status: 502,
    text: 'The identity provider did not answer. Try again in a moment.',
  },
  expired: {
    status: 400,
    text: 'This sign-in expired, was used already, or was started in another browser.',
  },
}

/** The status of the page of a stopped sign-in. */
export function ssoStopStatus(why: SsoStop): number {
  return WHY[why].status
}

/**
 * The page of a sign-in through the provider that stopped, saying why, with the way back: the
 * sign-in page, or the app that asked.
 */
export function ssoStoppedPage(why: SsoStop, again: { href: string } | 'app'): string {
  const back =
    again === 'app'
      ? html`<p>Start again from the app.</p>`
      : html`<p><a href="${again.href}">Sign in again</a></p>`
  return layout({
    title: 'Sign-in did not complete',
    web: null,
    body: html`<div class="sign-in">
<h1>Sign-in did not complete</h1>
<p>${WHY[why].text}</p>
!${back}
</div>`,
  })
}

/**
 * The page of someone the provider vouched for who may open no workspace: the same for every
 * such email, so it tells nothing of which workspaces exist or whom they hold.
 */
export function noWorkspacePage(email: string): string {
  return layout({
    title: 'No workspace',
    web: null,
    body: html`<div class="sign-in">
<h1>No workspace to open</h1>
<p>You signed in at your identity provider as ${email}, and no Workgraph workspace here is open
to that address: no one has invited it.</p>
<p>Ask an owner or admin of your workspace to invite ${email}, then sign in again.</p>
</div>`,
  })
}

/** The join page of an invitation when password sign-in is off: the provider is the way in. */
export function ssoJoinOffer(input: { href: string; name: string; email: string }): string {
  return html`<p>Sign in with ${input.name} as ${input.email}: the invitation is accepted then.</p>
<p><a class="button sso" href="${input.href}">Join with ${input.name}</a></p>`
}

/** A verified person's way into a workspace, as the choice page names it. */
export function optionRole(option: SsoOption): string {
  if (option.kind === 'person') return option.role
  return option.kind === 'invitation' ? `invited as ${option.role}` : 'joins as member'
}
