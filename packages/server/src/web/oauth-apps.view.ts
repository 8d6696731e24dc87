import { html } from 'ghtml'
import type { OAuthGrantRow } from '../oauth/oauth-grants.queries.ts'
import { scopeList } from './credential-parts.ts'
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
): string {
  return grants
    .map(
      (
        grant,
      ) => html`<tr><td>${grant.client_name}</td>!${ownerName ? html`<td>${ownerName(grant)}</td>` : ''}
<td>!${scopeList(grant.scopes)}</td><td>!${when(grant.created_at.toISOString())}</td>
<td>!${when(grant.last_used_at?.toISOString())}</td>
<td><a href="${revokeBase}/${grant.id}/revoke">Revoke<span class="visually-hidden"> ${grant.client_name}</span></a></td></tr>`,
    )
    .join('')
}

/** The apps the person authorized to act for them (their OAuth grants), each revocable. */
export function oauthAppsPage(web: WebContext, grants: OAuthGrantRow[]): string {
  const table = grants.length
    ? html`<table class="list"><caption class="visually-hidden">Apps you authorized</caption><thead><tr><th scope="col">App</th><th scope="col">Scopes</th><th scope="col">Authorized</th><th scope="col">Last used</th><th scope="col">Actions</th></tr></thead><tbody>!${grantRows(grants, OAUTH_APPS_PATH)}</tbody></table>`
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
