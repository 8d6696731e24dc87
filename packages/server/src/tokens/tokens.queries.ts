import { type Selectable, sql } from 'kysely'
import { canAdminister } from '../access/administration.ts'
import { boundGrantsLive } from '../access/credential-liveness.ts'
import type { Principal } from '../access/principal.ts'
import type { Db } from '../db/database.ts'
import type { TokensTable } from '../db/tables/token.table.ts'
import type { CursorPosition } from '../lib/cursor.ts'

/** A token row (its hash never leaves this module's callers' presenters). */
export type TokenRow = Selectable<TokensTable>

/** A token as listed: its row, and whether the OAuth grants it ends with still live. */
export type ListedToken = TokenRow & { grants_live: boolean }

/**
 * Tokens the principal may manage, newest first; `limit + 1` rows. Those who administer the
 * workspace manage every token; everyone else only their own.
 */
export async function listTokens(
  db: Db,
  principal: Principal,
  filters: {
    ids?: readonly string[]
    type?: string | undefined
    owner_id?: string | undefined
    status?: readonly string[] | undefined
  },
  after: CursorPosition | null,
  limit: number,
  now: Date,
): Promise<ListedToken[]> {
  const grantsLive = boundGrantsLive('t.grant_ids', now)
  let query = db
    .selectFrom('tokens as t')
    .selectAll('t')
    .select(sql<boolean>`${grantsLive}`.as('grants_live'))
    .where('t.workspace_id', '=', principal.workspaceId)
  if (!canAdminister(principal)) {
    query = query.where((eb) =>
      eb.or([
        eb('t.person_id', '=', principal.actorId),
        eb('t.integration_id', '=', principal.actorId),
      ]),
    )
  }
  if (filters.ids) query = query.where('t.id', 'in', [...filters.ids])
  if (filters.type) query = query.where('t.kind', '=', filters.type as TokenRow['kind'])
  if (filters.owner_id) {
    const owner = filters.owner_id
    query = query.where((eb) =>
      eb.or([eb('t.person_id', '=', owner), eb('t.integration_id', '=', owner)]),
    )
  }
  if (filters.status?.length) {
    // A key whose OAuth grant ended is revoked, whether or not anything has marked it yet.
    const conditions = {
      active: sql<boolean>`(t.revoked_at is null and t.expires_at is null and ${grantsLive})`,
      expiring: sql<boolean>`(t.revoked_at is null and t.expires_at > ${now} and ${grantsLive})`,
      expired: sql<boolean>`(t.revoked_at is null and t.expires_at <= ${now} and ${grantsLive})`,
      revoked: sql<boolean>`(t.revoked_at is not null or not ${grantsLive})`,
    } as const
    const wanted = filters.status.map((status) => conditions[status as keyof typeof conditions])
    query = query.where(sql<boolean>`(${sql.join(wanted, sql` or `)})`)
  }
  if (after)
    query = query.where(
      sql<boolean>`(t.created_at, t.id) < (${after[0]}::timestamptz, ${after[1]}::text)`,
    )
  return query
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(limit + 1)
    .execute()
}
