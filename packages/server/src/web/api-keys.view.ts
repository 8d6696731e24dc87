import { html } from 'ghtml'
import type { Scope } from '../catalogue/scopes.ts'
import type { ListedToken } from '../tokens/tokens.queries.ts'
import { listTable, revokeLink, scopeChecks, scopeList, statusOf } from './credential-parts.ts'
import { keyLimitFields } from './key-limits.view.ts'
import { csrfForm, layout } from './layout.view.ts'
import { when } from './view-parts.ts'
import type { WebContext } from './web-context.ts'

/** Where the API keys page lives. */
export const API_KEYS_PATH = '/settings/api-keys'

/** The create form as it was submitted, to show it again with what was wrong. */
export interface KeyFormState {
  readonly name?: string
  readonly checked?: ReadonlySet<string>
  /** Projects ticked to fence the key to. */
  readonly projects?: ReadonlySet<string>
  /** Days until the key stops working ('' for never). */
  readonly lifetime?: string
  readonly error?: string
}

/** The person's own API keys, newest first, and the form that creates one. */
export function apiKeysPage(
  web: WebContext,
  input: {
    keys: ListedToken[]
    now: Date
    allowed: ReadonlySet<Scope>
    /** The projects a key may be fenced to: those the person can open. */
    projects: readonly { id: string; name: string }[]
    formKey: string
    form?: KeyFormState
  },
): string {
  const { form = {} } = input
  const rows = input.keys.map(
    (
      key,
    ) => html`<tr><td>${key.name} <span class="muted">…${key.last4}</span>!${fenceNote(key)}</td>
<td>!${scopeList(key.scopes)}</td><td>!${when(key.created_at.toISOString())}</td>
<td>!${when(key.last_used_at?.toISOString())}</td><td>!${statusOf(key, input.now)}</td>
<td class="actions">!${actions(key, input.now)}</td></tr>`,
  )
  const headers = ['Name', 'Scopes', 'Created', 'Last used', 'Status', 'Actions']
  const table = rows.length
    ? listTable('Your API keys', headers, rows)
    : html`<p class="empty">You have no API key yet.</p>`
  const create = csrfForm(
    API_KEYS_PATH,
    web.csrf,
    html`<input type="hidden" name="form_key" value="${input.formKey}">
!${form.error ? html`<p class="error" role="alert">${form.error}</p>` : ''}
<label for="key-name">Name</label>
<input type="text" id="key-name" name="name" required maxlength="200" value="${form.name ?? ''}">
!${scopeChecks(input.allowed, form.checked ?? new Set())}
!${keyLimitFields({
      projects: input.projects,
      checked: form.projects ?? new Set(),
      lifetime: form.lifetime ?? '',
    })}
<button type="submit">Create key</button>`,
    'class="stack wide"',
  )
  return layout({
    title: 'API keys',
    web,
    current: API_KEYS_PATH,
    body: html`<h1>API keys</h1>
<p class="lede">Keys act as you, with the scopes you give them, from scripts and tools:
<code>Authorization: Bearer wg_key_…</code>.</p>
!${table}
<h2>Create a key</h2>
<p>A key can have only scopes your role allows.</p>
!${create}`,
  })
}

// A key fenced to projects says so beside its name.
function fenceNote(key: ListedToken): string {
  const count = key.project_ids?.length
  if (count === undefined) return ''
  return html` <span class="muted">· ${count === 1 ? '1 project' : `${String(count)} projects`}</span>`
}

/**
 * Whether a key may be rotated from the dashboard: it works, and is not already on its way out
 * after a rotation (an end it was created with is kept by its successor, so it does not count).
 */
export function isRotatable(key: ListedToken, now: Date): boolean {
  if (key.revoked_at || !key.makers_live) return false
  if (key.expires_at === null) return true
  return key.expires_at > now && key.expires_at.getTime() === key.valid_until?.getTime()
}

function actions(key: ListedToken, now: Date): string {
  if (key.revoked_at || (key.expires_at && key.expires_at <= now)) return ''
  const rotate = !isRotatable(key, now)
    ? ''
    : html`<a class="button small secondary" href="${API_KEYS_PATH}/${key.id}/rotate">Rotate<span class="visually-hidden">
${key.name}</span></a>`
  return rotate + revokeLink(`${API_KEYS_PATH}/${key.id}/revoke`, key.name)
}

/** The rotation form: how long the old key keeps working, as the API's `overlap_seconds`. */
export function rotateKeyPage(web: WebContext, key: ListedToken, formKey: string): string {
  const options: [number, string][] = [
    [0, 'Stop it at once'],
    [3600, 'Keep it working for 1 hour'],
    [86_400, 'Keep it working for 1 day'],
    [604_800, 'Keep it working for 7 days'],
  ]
  const select = html`<label for="overlap">The old key</label>
<select id="overlap" name="overlap_seconds">!${options
    .map(
      ([seconds, label]) =>
        html`<option value="${String(seconds)}"!${seconds === 86_400 ? ' selected' : ''}>${label}</option>`,
    )
    .join('')}</select>`
  return layout({
    title: 'Rotate a key',
    web,
    current: API_KEYS_PATH,
    body: html`<h1>Rotate “${key.name}”</h1>
<p>A new key with the same name and scopes (${key.scopes.length}) replaces it; its secret is
shown once. The old key (…${key.last4}) keeps working for the time you choose, so that whatever
uses it can switch without downtime.</p>
!${csrfForm(
      `${API_KEYS_PATH}/${key.id}/rotate`,
      web.csrf,
      html`<input type="hidden" name="form_key" value="${formKey}">!${select}
<button type="submit">Rotate “${key.name}”</button>
<a class="button secondary" href="${API_KEYS_PATH}">Cancel</a>`,
      'class="stack"',
    )}`,
  })
}
