import { html } from 'ghtml'
import { layout } from '../../web/layout.view.ts'

/**
 * The page shown instead of a redirect when an authorization cannot go on: the request cannot be
 * trusted with one (an unknown client or redirect URI), or the interaction has expired.
 */
export function interactionErrorPage(error: string, description?: string): string {
  return layout({
    title: 'Something went wrong',
    web: null,
    body: html`<div class="sign-in">
<h1>Something went wrong</h1>
<p>The app's request could not be completed, and you were not sent back to it.</p>
<p><code>${error}</code>!${description ? html`: ${description}` : ''}</p>
</div>`,
  })
}
