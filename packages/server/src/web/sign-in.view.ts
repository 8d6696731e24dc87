import { html } from 'ghtml'
import { layout } from './layout.view.ts'

/** The sign-in form; `returnTo` is already a safe local path (return-to.ts). */
export function signInPage(input: {
  csrf: string
  returnTo: string
  email?: string
  error?: string
}): string {
  return layout({
    title: 'Sign in',
    web: null,
    body: html`<div class="sign-in">
<h1>Sign in</h1>
<p class="lede">Sign in with your Workgraph email and password.</p>
!${input.error ? html`<p class="error" role="alert">${input.error}</p>` : ''}
<form class="stack" method="post" action="/sign-in">
<input type="hidden" name="csrf" value="${input.csrf}">
<input type="hidden" name="return_to" value="${input.returnTo}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${input.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
</div>`,
  })
}

/** The choice of workspace when one email and password sign in to several. */
export function workspaceChoicePage(input: {
  csrf: string
  returnTo: string
  options: { value: string; workspaceName: string; role: string }[]
}): string {
  return layout({
    title: 'Choose a workspace',
    web: null,
    body: html`<div class="sign-in">
<h1>Choose a workspace</h1>
<p class="lede">You belong to several workspaces. Choose the one to open.</p>
<form class="stack" method="post" action="/sign-in/workspace">
<input type="hidden" name="csrf" value="${input.csrf}">
<input type="hidden" name="return_to" value="${input.returnTo}">
<fieldset><legend>Workspace</legend>
!${input.options.map(
      (
        option,
        index,
      ) => html`<p><input type="radio" name="choice" id="choice-${index}" value="${option.value}"!${index === 0 ? ' checked' : ''}>
<label for="choice-${index}">${option.workspaceName} (${option.role})</label></p>`,
    )}
</fieldset>
<button type="submit">Continue</button>
</form>
</div>`,
  })
}
