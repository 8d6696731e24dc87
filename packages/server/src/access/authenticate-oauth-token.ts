import type { Db } from '../db/database.ts'
import { PREPARED } from '../db/prepared-statements.ts'
import { lastUseIsStale, type TokenFailure, type TokenIdentity } from './authenticate-token.ts'
import type { Role } from './principal.ts'
import { expandScopes } from './scopes.ts'
import { hashSecret, isWellFormedSecret, SECRET_PREFIX } from './secrets.ts'

/**
 * Resolves an OAuth access token (`wg_at_…`) issued by our authorization server to the person it
 * acts for. Read straight from the authorization server's table, in one query that also requires
 * the token's grant to be alive: revoking a grant, or presenting a spent refresh token, ends every
 * access token of it on the next request. `resource` is this API's identifier; a token for any
 * other audience is refused.
 */
export async function authenticateOAuthToken(
  db: Db,
  token: string,
  now: Date,
  resource: string,
): Promise<TokenIdentity | TokenFailure> {
  if (!isWellFormedSecret(SECRET_PREFIX.oauthAccessToken, token)) return 'invalid'
  const row = await db
    .selectFrom('oauth_artifacts as t')
    .innerJoin('oauth_artifacts as g', (join) =>
      join.on('g.model', '=', 'Grant').onRef('g.grant_id', '=', 't.grant_id'),
    )
    .innerJoin('people as p', 'p.id', 't.account_id')
    .innerJoin('workspaces as w', 'w.id', 'p.workspace_id')
    .select([
      't.payload',
      't.grant_id',
      't.client_id',
      't.expires_at',
      'g.last_used_at',
      'g.project_ids',
      'p.id as person_id',
      'p.workspace_id',
      'p.role',
      'p.deactivated_at',
      'w.acl_epoch',
    ])
    .where('t.model', '=', 'AccessToken')
    .where('t.id_hash', '=', hashSecret(token))
    .modifyEnd(PREPARED)
    .executeTakeFirst()
  // A deactivated person's grants are revoked with them; their tokens are refused here even so.
  if (!row?.grant_id || !row.client_id || row.deactivated_at !== null) return 'invalid'
  const audience = row.payload.aud
  const audiences = Array.isArray(audience) ? audience : [audience]
  if (!audiences.includes(resource)) return 'invalid'
  if (row.expires_at === null || row.expires_at <= now) return 'expired'
  if (lastUseIsStale(row.last_used_at, now)) {
    await db
      .updateTable('oauth_artifacts')
      .set({ last_used_at: now })
      .where('model', '=', 'Grant')
      .where('grant_id', '=', row.grant_id)
      .execute()
  }
  const scope = typeof row.payload.scope === 'string' ? row.payload.scope : ''
  return {
    credential: {
      id: row.grant_id,
      kind: 'oauth',
      clientId: row.client_id,
      scopes: expandScopes(scope.split(' ').filter(Boolean)),
      madeWith: [row.grant_id],
      // The projects the person picked at consent (docs/oauth.md, "Picking projects").
      fence: row.project_ids,
      // A key made with this token ends with the grant (madeWith), not with the hour-long token.
      validUntil: null,
    },
    actor: {
      workspaceId: row.workspace_id,
      actorId: row.person_id,
      actorKind: 'person',
      role: row.role as Role,
    },
    aclEpoch: String(row.acl_epoch),
  }
}
