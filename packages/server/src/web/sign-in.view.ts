import { html } from 'ghtml'
import { layout } from './layout.view.ts'

/** What both sign-in forms (the dashboard's and an OAuth app's) are made of. */
export interface SignInForm {
  /** Where the form posts: `/sign-in`, or the interaction's `…/login`. */
  readonly action: string
  readonly csrf: string
  /** Hidden fields the next step needs (the dashboard's `return_to`). */
  readonly hidden?: Readonly<Record<string, string>>
  /** The line under the heading: trusted HTML, made by ghtml's `html`. */
  readonly lede: string
}

function hiddenFields(input: SignInForm): string {
  return html`<input type="hidden" name="csrf" value="${input.csrf}">!${Object.entries(
    input.hidden ?? {},
  ).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}`
}

/** The sign-in form: email and password, with the last attempt's error. */
export function signInPage(input: SignInForm & { email?: string; error?: string }): string {
  return layout({
    title: 'Sign in',
    web: null,
    body: html`<div class="sign-in">
<h1>Sign in</h1>
<p class="lede">!${input.lede}</p>
!${input.error ? html`<p class="error" role="alert">${input.error}</p>` : ''}
<form class="stack" method="post" action="${input.action}">
!${hiddenFields(input)}
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
export function workspaceChoicePage(
  input: SignInForm & { options: { value: string; workspaceName: string; role: string }[] },
): string {
  return layout({
    title: 'Choose a workspace',
    web: null,
    body: html`<div class="sign-in">
<h1>Choose a workspace</h1>
<p class="lede">!${input.lede}</p>
<form class="stack" method="post" action="${input.action}">
!${hiddenFields(input)}
<fieldset><legend>Workspace</legend>
<ul class="checks">!${input.options.map(
      (
        option,
        index,
      ) => html`<li><input type="radio" name="choice" id="choice-${index}" value="${option.value}"!${index === 0 ? ' checked' : ''}>
<label for="choice-${index}">${option.workspaceName} (${option.role})</label></li>`,
    )}</ul>
</fieldset>
<button type="submit">Continue</button>
</form>
</div>`,
  })
}
