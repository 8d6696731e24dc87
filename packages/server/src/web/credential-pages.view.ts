import { html } from 'ghtml'
import { confirmForm, secretBox } from './credential-parts.ts'
import { layout } from './layout.view.ts'
import type { WebContext } from './web-context.ts'

/** What a page that issued a secret says; `secret` is null when the form was submitted again. */
export interface IssuedInput {
  readonly title: string
  /** Trusted HTML: what was issued and what to do with it. */
  readonly what: string
  readonly secret: string | null
  readonly back: string
  readonly current: string
}

/**
 * The page after a key or token is made: its secret, this once (the page is `no-store` like every
 * page, so neither the back button nor a cache brings it back). A resubmitted form (a reload)
 * replays the write and gets this page without the secret.
 */
export function issuedPage(web: WebContext, input: IssuedInput): string {
  const secret = input.secret
    ? secretBox(input.secret)
    : html`<p class="error">This form was already submitted: the secret was shown then, and is
never shown again. If it was not copied, revoke the key and make another.</p>`
  return layout({
    title: input.title,
    web,
    current: input.current,
    body: html`<h1>${input.title}</h1>
!${input.what}
!${secret}
<p><a href="${input.back}">Done</a></p>`,
  })
}

/** A confirmation step before a destructive action; the button says what it does. */
export function confirmPage(
  web: WebContext,
  input: {
    title: string
    lede: string
    action: string
    label: string
    back: string
    current: string
  },
): string {
  return layout({
    title: input.title,
    web,
    current: input.current,
    body: html`<h1>${input.title}</h1>
<p>${input.lede}</p>
!${confirmForm(input.action, web.csrf, input.label, input.back)}`,
  })
}
