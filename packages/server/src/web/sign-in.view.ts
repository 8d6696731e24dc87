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

/** What the sign-in page offers: the identity provider's button, the password form, or both. */
export interface SignInOffer {
  /** Where "Sign in with …" leads and the provider's name; absent without SSO_ISSUER. */
  readonly sso?: { readonly href: string; readonly name: string }
  /** Whether the email and password form is shown (PASSWORD_SIGN_IN). */
  readonly passwords: boolean
}

function hiddenFields(input: SignInForm): string {
  return html`<input type="hidden" name="csrf" value="${input.csrf}">!${Object.entries(
    input.hidden ?? {},
  ).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}`
}

/**
 * The sign-in page: the identity provider's button and the email and password form, as offered,
 * with the last attempt's error. The button is a link, not a form: a form's redirect to the
 * provider would have to be allowed by the CSP's `form-action`, along every redirect the provider
 * makes next.
 */
export function signInPage(
  input: SignInForm & SignInOffer & { email?: string; error?: string },
): string {
  const sso = input.sso
    ? html`<p><a class="button sso" href="${input.sso.href}">Sign in with ${input.sso.name}</a></p>`
    : ''
  const passwords = input.passwords
    ? html`!${input.sso ? html`<p class="or">Or with your Workgraph email and password:</p>` : ''}
<form class="stack" method="post" action="${input.action}">
!${hiddenFields(input)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${input.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`
    : ''
  return layout({
    title: 'Sign in',
    web: null,
    body: html`<div class="sign-in">
<h1>Sign in</h1>
<p class="lede">!${input.lede}</p>
!${input.error ? html`<p class="error" role="alert">${input.error}</p>` : ''}
!${sso}
!${passwords}
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
