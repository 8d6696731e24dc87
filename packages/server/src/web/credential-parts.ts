import { html } from 'ghtml'
import { SCOPES, type Scope } from '../catalogue/scopes.ts'
import { tokenStatus } from '../tokens/tokens.present.ts'
import type { ListedToken } from '../tokens/tokens.queries.ts'
import { csrfForm } from './layout.view.ts'
import { badge, tableBox, when } from './view-parts.ts'

/** A token's status as the pages show it: a rotated key says until when it keeps working. */
export function statusOf(row: ListedToken, now: Date): string {
  const status = tokenStatus(row, now)
  if (status === 'expiring')
    return html`!${badge('rotating')} until !${when(row.expires_at?.toISOString())}`
  return badge(status)
}

/** Scope names as code, comma-separated. */
export function scopeList(scopes: readonly string[]): string {
  return scopes.map((scope) => html`<code>${scope}</code>`).join(', ')
}

/**
 * Checkboxes of the scopes one may give, each with what it allows; `checked` are ticked (the key
 * form ticks none: a key gets only the scopes its maker chose).
 */
export function scopeChecks(allowed: ReadonlySet<Scope>, checked: ReadonlySet<string>): string {
  const boxes = [...allowed].map(
    (scope) =>
      html`<li><input type="checkbox" id="scope-${scope}" name="scopes" value="${scope}"
!${checked.has(scope) ? ' checked' : ''}> <label for="scope-${scope}"><code>${scope}</code>
${SCOPES[scope]}</label></li>`,
  )
  return html`<fieldset><legend>Scopes</legend><ul class="checks">!${boxes.join('')}</ul></fieldset>`
}

/**
 * The one-time display of a secret: selectable text, and a copy button that app.js reveals (it is
 * hidden without script, where the text can still be selected and copied).
 */
export function secretBox(secret: string): string {
  return html`<div class="secret"><p><strong>Copy this secret now: it is shown only once.</strong>
Only a hash is stored, so it cannot be shown again.</p>
<p><code id="secret" class="secret-value">${secret}</code>
<button type="button" data-copy="secret" hidden>Copy</button></p></div>`
}

/** A confirmation form: its one button says exactly what submitting it does. */
export function confirmForm(action: string, csrf: string, label: string, back: string): string {
  return csrfForm(
    action,
    csrf,
    html`<button type="submit" class="danger">${label}</button>
<a class="button secondary" href="${back}">Cancel</a>`,
  )
}

/** A table of trusted HTML rows under column headers, with a caption for screen readers. */
export function listTable(caption: string, headers: readonly string[], rows: string[]): string {
  const head = headers.map((header) => html`<th scope="col">${header}</th>`).join('')
  return tableBox(
    caption,
    html`<table class="list"><caption class="visually-hidden">${caption}</caption>
<thead><tr>!${head}</tr></thead><tbody>!${rows.join('')}</tbody></table>`,
  )
}

/** A "Revoke" link, styled as destructive, whose accessible name says what it revokes. */
export function revokeLink(href: string, name: string): string {
  return html`<a class="button small danger-outline" href="${href}">Revoke<span class="visually-hidden"> ${name}</span></a>`
}
