import { html } from 'ghtml'
import { layout } from './layout.view.ts'
import type { WebContext } from './web-context.ts'

/** The 403 of a page the signed-in person's role does not open (the audit log for members). */
export function forbiddenPage(web: WebContext, reason: string): string {
  return layout({
    title: 'Not available',
    web,
    body: html`<h1>Not available</h1>
<p>${reason}</p>
<p><a href="/">Go to the home page</a></p>`,
  })
}
