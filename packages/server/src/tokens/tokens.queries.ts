import { type Selectable, sql } from 'kysely'
import { canAdminister } from '../access/administration.ts'
import type { Caller } from '../access/caller.ts'
import { makersLive } from '../access/credential-liveness.ts'
import { coveredBy } from '../access/credential-reach.ts'
import type { Db } from '../db/database.ts'
import type { TokensTable } from '../db/tables/token.table.ts'
import type { CursorPosition } from '../lib/cursor.ts'

/** A token row (its hash never leaves this module's callers' presenters). */
export type TokenRow = Selectable<TokensTable>

/** A token as listed: its row, and whether everything it was made with still lives. */
export type ListedToken = TokenRow & { makers_live: boolean }

/**
 * Tokens the caller may manage, newest first; `limit + 1` rows. Those who administer the
 * workspace manage every token; everyone else only their own; and only through a credential that
 * covers the token (access/credential-reach.ts): a narrower key never sees a wider one.
 */
export async function listTokens(
  db: Db,
  caller: Caller,
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
  const { principal } = caller
  const alive = makersLive('t.made_with', 't.workspace_id', now)
  let query = db
    .selectFrom('tokens as t')
    .selectAll('t')
    .select(sql<boolean>`${alive}`.as('makers_live'))
    .where('t.workspace_id', '=', principal.workspaceId)
    .where(coveredBy(caller.credential, 't.scopes', 't.project_ids'))
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
    // A key something it was made with has ended is revoked, whether or not it is marked yet.
    const conditions = {
      active: sql<boolean>`(t.revoked_at is null and t.expires_at is null and ${alive})`,
      expiring: sql<boolean>`(t.revoked_at is null and t.expires_at > ${now} and ${alive})`,
      expired: sql<boolean>`(t.revoked_at is null and t.expires_at <= ${now} and ${alive})`,
      revoked: sql<boolean>`(t.revoked_at is not null or not ${alive})`,
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
