import { html } from 'ghtml'
import type { Scope } from '../catalogue/scopes.ts'
import type { OAuthGrantRow } from '../tokens/oauth-grants.queries.ts'
import type { ListedToken } from '../tokens/tokens.queries.ts'
import { listTable, revokeLink, scopeChecks, scopeList, statusOf } from './credential-parts.ts'
import { csrfForm, layout } from './layout.view.ts'
import { grantRows } from './oauth-apps.view.ts'
import { when } from './view-parts.ts'
import type { WebContext } from './web-context.ts'

/** Where owners and admins see every credential of the workspace. */
export const TOKENS_PATH = '/settings/tokens'

/** The create form as submitted, to show it again with what was wrong. */
export interface TokenFormState {
  readonly name?: string
  readonly checked?: ReadonlySet<string>
  readonly error?: string
}

/** What the page lists: every token and grant, their owners' names, what a new token may be. */
export interface TokensPageInput {
  readonly tokens: ListedToken[]
  readonly grants: OAuthGrantRow[]
  readonly owners: ReadonlyMap<string, string>
  readonly integrations: readonly { id: string; name: string }[]
  readonly allowed: ReadonlySet<Scope>
  readonly formKey: string
  readonly now: Date
  readonly form?: TokenFormState
}

/** Every API key, workspace token and OAuth grant of the workspace, and the token form. */
export function workspaceTokensPage(web: WebContext, input: TokensPageInput): string {
  const owner = (id: string | null) => (id ? (input.owners.get(id) ?? id) : '—')
  const rows = input.tokens.map(
    (token) => html`<tr><td>${token.name} <span class="muted">…${token.last4}</span></td>
<td>${token.kind === 'api_key' ? 'API key' : 'Workspace token'}</td>
<td>${owner(token.person_id ?? token.integration_id)}</td><td>!${scopeList(token.scopes)}</td>
<td>!${when(token.last_used_at?.toISOString())}</td><td>!${statusOf(token, input.now)}</td>
<td>!${token.revoked_at ? '' : revokeLink(`${TOKENS_PATH}/${token.id}/revoke`, token.name)}</td></tr>`,
  )
  const tokenHeaders = ['Name', 'Type', 'Owner', 'Scopes', 'Last used', 'Status', 'Actions']
  const tokens = rows.length
    ? listTable('Keys and tokens', tokenHeaders, rows)
    : html`<p class="empty">No key or token yet.</p>`
  const grantHeaders = ['App', 'Person', 'Scopes', 'Authorized', 'Last used', 'Actions']
  const grantList = grantRows(input.grants, TOKENS_PATH, (grant) => owner(grant.person_id))
  const grants = grantList.length
    ? listTable('Authorized apps', grantHeaders, grantList)
    : html`<p class="empty">No app is authorized.</p>`
  return layout({
    title: 'Workspace tokens',
    web,
    current: TOKENS_PATH,
    body: html`<h1>Workspace tokens</h1>
<p class="lede">Every credential of the workspace: people's API keys, integrations' workspace
tokens and the apps people authorized. Revoking one stops it at once.</p>
<h2>Keys and tokens</h2>
!${tokens}
<h2>Authorized apps</h2>
!${grants}
<h2>Create a workspace token</h2>
<p>A workspace token acts as an integration, which sees only what is shared with it.</p>
!${createForm(web, input)}`,
  })
}

function createForm(web: WebContext, input: TokensPageInput): string {
  const { form = {} } = input
  const options = input.integrations.map(
    (integration) => html`<option value="${integration.id}">${integration.name}</option>`,
  )
  return csrfForm(
    TOKENS_PATH,
    web.csrf,
    html`<input type="hidden" name="form_key" value="${input.formKey}">
!${form.error ? html`<p class="error" role="alert">${form.error}</p>` : ''}
<label for="token-name">Name</label>
<input type="text" id="token-name" name="name" required maxlength="200" value="${form.name ?? ''}">
<label for="integration">Integration</label>
<select id="integration" name="integration"><option value="new">A new integration</option>
!${options.join('')}</select>
<label for="integration-name">New integration's name</label>
<input type="text" id="integration-name" name="integration_name" maxlength="200">
!${scopeChecks(input.allowed, form.checked ?? new Set())}
<button type="submit">Create token</button>`,
    'class="stack wide"',
  )
}
