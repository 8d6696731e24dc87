import { html } from 'ghtml'
import type { OAuthGrantRow } from '../tokens/oauth-grants.queries.ts'
import { listTable, revokeLink, scopeList } from './credential-parts.ts'
import { layout } from './layout.view.ts'
import { when } from './view-parts.ts'
import type { WebContext } from './web-context.ts'

/** Where the page of the apps a person authorized lives. */
export const OAUTH_APPS_PATH = '/settings/apps'

/** The rows of a grants table: the app, (its person,) scopes, when, last use, a revoke link. */
export function grantRows(
  grants: OAuthGrantRow[],
  revokeBase: string,
  ownerName?: (grant: OAuthGrantRow) => string,
): string[] {
  return grants.map(
    (
      grant,
    ) => html`<tr><td>${grant.client_name}</td>!${ownerName ? html`<td>${ownerName(grant)}</td>` : ''}
<td>!${scopeList(grant.scopes)}</td><td>!${when(grant.created_at.toISOString())}</td>
<td>!${when(grant.last_used_at?.toISOString())}</td>
<td>!${revokeLink(`${revokeBase}/${grant.id}/revoke`, grant.client_name)}</td></tr>`,
  )
}

/** The apps the person authorized to act for them (their OAuth grants), each revocable. */
export function oauthAppsPage(web: WebContext, grants: OAuthGrantRow[]): string {
  const headers = ['App', 'Scopes', 'Authorized', 'Last used', 'Actions']
  const table = grants.length
    ? listTable('Apps you authorized', headers, grantRows(grants, OAUTH_APPS_PATH))
    : html`<p class="empty">You have not authorized any app.</p>`
  return layout({
    title: 'OAuth apps',
    web,
    current: OAUTH_APPS_PATH,
    body: html`<h1>OAuth apps</h1>
<p class="lede">Apps you allowed to act as you, with the scopes you approved. Revoking one ends
its access at once, with the keys made through it.</p>
!${table}`,
  })
}
