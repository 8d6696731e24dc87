import { html } from 'ghtml'
import { PASSWORD_LENGTH } from '../setup/owner-input.ts'
import { layout } from './layout.view.ts'
import type { SignInOffer } from './sign-in.view.ts'
import { ssoJoinOffer } from './sso.view.ts'

/** What the join form shows: the workspace, the invitee and how they prove who they are. */
export interface JoinForm {
  readonly action: string
  readonly csrf: string
  readonly workspaceName: string
  readonly email: string
  readonly role: string
  readonly name: string
  /** The email already signs in elsewhere: ask for that password instead of a new one. */
  readonly hasPassword: boolean
  readonly error?: string
}

/**
 * The page an invitation's link opens: join the workspace with a name and a password, or through
 * the identity provider when there is one (only so when passwords are off).
 */
export function joinPage(input: JoinForm & SignInOffer): string {
  const password = input.hasPassword
    ? html`<label for="password">Your Workgraph password</label>
<p id="password-hint">${input.email} already signs in to Workgraph: its password is this workspace's too.</p>
<input id="password" name="password" type="password" autocomplete="current-password" required aria-describedby="password-hint">`
    : html`<label for="password">Choose a password</label>
<p id="password-hint">At least ${PASSWORD_LENGTH.min} characters.</p>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_LENGTH.min}" aria-describedby="password-hint">`
  const sso = input.sso ? ssoJoinOffer({ ...input.sso, email: input.email }) : ''
  const form = input.passwords
    ? html`!${input.sso ? html`<p class="or">Or join with a Workgraph password:</p>` : ''}
<form class="stack" method="post" action="${input.action}">
<input type="hidden" name="csrf" value="${input.csrf}">
<input type="hidden" name="email" value="${input.email}" autocomplete="username">
<label for="name">Your name</label>
<input id="name" name="name" type="text" autocomplete="name" required maxlength="200" value="${input.name}">
!${password}
<button type="submit">Join ${input.workspaceName}</button>
</form>`
    : ''
  return layout({
    title: `Join ${input.workspaceName}`,
    web: null,
    body: html`<div class="sign-in">
<h1>Join ${input.workspaceName}</h1>
<p class="lede">You were invited to join as ${input.role === 'admin' ? 'an admin' : `a ${input.role}`}, with the email ${input.email}.</p>
!${input.error ? html`<p class="error" role="alert">${input.error}</p>` : ''}
!${sso}
!${form}
</div>`,
  })
}

/**
 * The one page of a link that does not work: unknown, malformed, used, revoked or expired alike,
 * so the page tells nothing about which.
 */
export function invitationGonePage(): string {
  return layout({
    title: 'Invitation not valid',
    web: null,
    body: html`<div class="sign-in">
<h1>This invitation has expired or was used</h1>
<p>An invitation link works once, for 7 days. Ask the person who invited you for a new one.</p>
<p>Already joined? <a href="/sign-in">Sign in</a>.</p>
</div>`,
  })
}
