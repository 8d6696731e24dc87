import { html } from 'ghtml'
import { PASSWORD_LENGTH } from '../setup/owner-input.ts'
import { type FormProblem, fieldError, invalidAttributes, problemSummary } from './form-problems.ts'
import { layout } from './layout.view.ts'

/** Where a password link leads: `/set-password/{token}`. */
export const SET_PASSWORD_PATH = '/set-password'

/** The form a password link opens: one new password for the person it was made for. */
export function setPasswordPage(input: {
  action: string
  csrf: string
  name: string
  email: string
  problem: FormProblem | null
}): string {
  const { problem } = input
  return layout({
    title: 'Choose your password',
    web: null,
    body: html`<div class="sign-in">
<h1>Choose your password</h1>
<p class="lede">For ${input.name} (${input.email}). It signs this email in to every workspace it
belongs to. This link works once.</p>
!${problemSummary(problem)}
<form class="stack" method="post" action="${input.action}">
<input type="hidden" name="csrf" value="${input.csrf}">
<input type="hidden" name="username" value="${input.email}" autocomplete="username">
<label for="password">New password (${PASSWORD_LENGTH.min} characters or more)</label>
<input id="password" name="password" type="password" autocomplete="new-password" required
minlength="${PASSWORD_LENGTH.min}" maxlength="${PASSWORD_LENGTH.max}"!${invalidAttributes(problem, '/password', 'password-error')}>
!${fieldError(problem, '/password', 'password-error')}
<button type="submit">Set password and sign in</button>
</form>
</div>`,
  })
}

/** A password link that does not work: used, expired, or never made; all three look the same. */
export function passwordLinkGonePage(): string {
  return layout({
    title: 'Link not valid',
    web: null,
    body: html`<h1>Link not valid</h1>
<p>This link does not work: it was used already, it is more than 24 hours old, or it is not one
this server made. Nothing was changed.</p>
<p>Ask whoever sent it for a new one; on the server, <code>workgraph user set-password</code>
sets a password too. <a href="/sign-in">Sign in</a> if you have one.</p>`,
  })
}
