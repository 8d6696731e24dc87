import { html } from 'ghtml'
import { layout } from './layout.view.ts'
import type { WebContext } from './web-context.ts'

/**
 * The one 404 page: an unknown id, a hidden one and one under another workspace's path all get
 * exactly this, so a page never tells whether something it will not show exists.
 */
export function notFoundPage(web: WebContext | null): string {
  return layout({
    title: 'Page not found',
    web,
    body: html`<h1>Page not found</h1>
<p>There is no page here, or it is not one you can open.</p>
<p><a href="/">Go to the home page</a></p>`,
  })
}

/** The 403 of a form whose CSRF token or origin does not check out: nothing was changed. */
export function forbiddenFormPage(web: WebContext | null): string {
  return layout({
    title: 'Form expired',
    web,
    body: html`<h1>Form expired</h1>
<p>The form could not be verified, so nothing was changed. Go back, reload the page and try
again.</p>
<p><a href="/">Go to the home page</a></p>`,
  })
}

/** A 400 for input no page accepts (characters that are never stored, for one). */
export function badRequestPage(web: WebContext | null): string {
  return layout({
    title: 'Bad request',
    web,
    body: html`<h1>Bad request</h1>
<p>The address or the form contains characters that are not allowed.</p>
<p><a href="/">Go to the home page</a></p>`,
  })
}

/** A form the service refused (scopes beyond the role, a key that no longer works…): why. */
export function refusedPage(web: WebContext | null, detail: string): string {
  return layout({
    title: 'Not done',
    web,
    body: html`<h1>Not done</h1>
<p>${detail}</p>
<p>Nothing was changed. <a href="/">Go to the home page</a></p>`,
  })
}
