import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { Db } from '../db/database.ts'

/*
 * When a credential works: the one rule behind authentication of keys made with other
 * credentials and behind every webhook endpoint, which lives no longer than the credential it is
 * bound to (docs/permissions.md, "What a credential reaches"). A credential ends with every
 * credential it was made with (`tokens.made_with`: keys, workspace tokens and OAuth grants).
 * Revocation also acts at once where it happens; this rule is what holds for ends that happen on
 * their own: a key or grant that expires, or a grant the authorization server revokes when a
 * spent refresh token comes back.
 *
 * `made_with` holds the whole lineage (a key made with a key made through an app holds the key
 * and the grant), so each entry is tested on its own row only, never through its own lineage:
 * no recursion, and a rotation that hands a lineage to a new key stays one array update.
 */

// A grant is live while its row exists (revoking deletes it) and has not expired.
function grantLive(grantId: RawBuilder<unknown>, now: Date): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from oauth_artifacts g where g.model = 'Grant' and g.grant_id = ${grantId} and (g.expires_at is null or g.expires_at > ${now}))`
}

// A key or workspace token of the workspace is live on its own row: not revoked, not expired.
function tokenRowLive(
  tokenId: RawBuilder<unknown>,
  workspaceId: RawBuilder<unknown>,
  now: Date,
): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from tokens m where m.workspace_id = ${workspaceId} and m.id = ${tokenId} and m.revoked_at is null and (m.expires_at is null or m.expires_at > ${now}))`
}

// Every credential of a text array (a lineage) is live on its own row.
function allLive(
  ids: RawBuilder<unknown>,
  workspaceId: RawBuilder<unknown>,
  now: Date,
): RawBuilder<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from unnest(${ids}) as maker(id) where not (${tokenRowLive(sql`maker.id`, workspaceId, now)} or ${grantLive(sql`maker.id`, now)}))`
}

/**
 * SQL: every credential in the lineage column (a token's `made_with`) of the workspace in
 * `workspaceColumn` is still live at `now`.
 */
export function makersLive(
  column: string,
  workspaceColumn: string,
  now: Date,
): RawBuilder<SqlBool> {
  return allLive(sql.ref(column), sql.ref(workspaceColumn), now)
}

/**
 * Whether these credentials (a key's `made_with`) are all still live at `now`, asked on its own:
 * authentication asks only for keys made with other credentials, so the statement every request
 * runs stays as small to plan as it was.
 */
export async function makersLiveNow(
  db: Db,
  workspaceId: string,
  madeWith: readonly string[],
  now: Date,
): Promise<boolean> {
  if (madeWith.length === 0) return true
  const ids = sql`${sql.val([...madeWith])}::text[]`
  const { rows } = await sql<{
    live: boolean
  }>`select ${allLive(ids, sql`${workspaceId}::text`, now)} as live`.execute(db)
  return rows[0]?.live === true
}

/**
 * The credential whose id is in `column` (an API key, a workspace token or an OAuth grant of the
 * workspace in `workspaceColumn`) works at `now`: not revoked, not expired, and nothing it was
 * made with has ended.
 */
export function credentialLive(
  column: string,
  workspaceColumn: string,
  now: Date,
): RawBuilder<SqlBool> {
  const id = sql.ref(column)
  return sql<SqlBool>`(exists (select 1 from tokens t
      where t.workspace_id = ${sql.ref(workspaceColumn)} and t.id = ${id} and t.revoked_at is null
        and (t.expires_at is null or t.expires_at > ${now}) and ${makersLive('t.made_with', 't.workspace_id', now)})
    or ${grantLive(id, now)})`
}
