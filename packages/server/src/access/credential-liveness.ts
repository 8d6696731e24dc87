import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { Db } from '../db/database.ts'

/*
 * When a credential works: the one rule behind authentication of keys minted through OAuth apps
 * and behind every webhook endpoint, which lives no longer than the credential it is bound to
 * (docs/permissions.md, "Credentials"). Revocation also acts at once where it happens; this rule
 * is what holds for ends that happen on their own: a grant that expires, or one the authorization
 * server revokes when a spent refresh token comes back.
 */

// A grant is live while its row exists (revoking deletes it) and has not expired.
function grantLive(grantId: RawBuilder<unknown>, now: Date): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from oauth_artifacts g where g.model = 'Grant' and g.grant_id = ${grantId} and (g.expires_at is null or g.expires_at > ${now}))`
}

// Every grant of a text array is live.
function allGrantsLive(grantIds: RawBuilder<unknown>, now: Date): RawBuilder<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from unnest(${grantIds}) as bound(id) where not ${grantLive(sql`bound.id`, now)})`
}

/** Every OAuth grant in the array column (a key's `grant_ids`) is still live at `now`. */
export function boundGrantsLive(column: string, now: Date): RawBuilder<SqlBool> {
  return allGrantsLive(sql.ref(column), now)
}

/**
 * Whether these OAuth grants (a key's `grant_ids`) are all still live at `now`, asked on its own:
 * authentication asks only for the few keys made through an app, so the statement every request
 * runs stays as small to plan as it was.
 */
export async function grantsLive(db: Db, grantIds: readonly string[], now: Date): Promise<boolean> {
  if (grantIds.length === 0) return true
  const ids = sql`${sql.val([...grantIds])}::text[]`
  const { rows } = await sql<{ live: boolean }>`select ${allGrantsLive(ids, now)} as live`.execute(
    db,
  )
  return rows[0]?.live === true
}

/**
 * The credential whose id is in `column` (an API key, a workspace token or an OAuth grant of the
 * workspace in `workspaceColumn`) works at `now`: not revoked, not expired, and no grant it was
 * made through has ended.
 */
export function credentialLive(
  column: string,
  workspaceColumn: string,
  now: Date,
): RawBuilder<SqlBool> {
  const id = sql.ref(column)
  return sql<SqlBool>`(exists (select 1 from tokens t
      where t.workspace_id = ${sql.ref(workspaceColumn)} and t.id = ${id} and t.revoked_at is null
        and (t.expires_at is null or t.expires_at > ${now}) and ${boundGrantsLive('t.grant_ids', now)})
    or ${grantLive(id, now)})`
}
