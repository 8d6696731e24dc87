import { sql } from 'kysely'
import { canAdminister } from '../access/administration.ts'
import type { Caller } from '../access/caller.ts'
import { coveredBy } from '../access/credential-reach.ts'
import type { Db } from '../db/database.ts'
import type { CursorPosition } from '../lib/cursor.ts'

/** A live grant as listed: who, which app, what was approved. */
export interface OAuthGrantRow {
  id: string
  client_id: string
  client_name: string
  person_id: string
  scopes: string[]
  /** The projects picked at consent; null when the grant is not fenced. */
  project_ids: string[] | null
  created_at: Date
  last_used_at: Date | null
  expires_at: Date
}

// The scope names a grant holds for this API, as a text array.
const grantScopes = sql`array(select unnest(string_to_array(resource.value, ' '))
  from jsonb_each_text(coalesce(g.payload->'resources', '{}'::jsonb)) as resource)`

/**
 * Live grants the caller may manage, newest first; `limit + 1` rows. Like tokens: everyone sees
 * their own, owners and admins every grant of the workspace, and only through a credential that
 * covers the grant (access/credential-reach.ts).
 */
export async function listOAuthGrants(
  db: Db,
  caller: Caller,
  filters: {
    ids?: readonly string[]
    client_id?: string | undefined
    /** Only the grants of this person (the dashboard's "apps you authorized"). */
    person_id?: string | undefined
  },
  after: CursorPosition | null,
  limit: number,
): Promise<OAuthGrantRow[]> {
  const createdAt = sql<Date>`to_timestamp((g.payload->>'iat')::double precision)`
  const { principal } = caller
  let query = db
    .selectFrom('oauth_artifacts as g')
    .innerJoin('people as p', 'p.id', 'g.account_id')
    .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
    .select([
      'g.grant_id as id',
      'g.client_id',
      'c.name as client_name',
      'p.id as person_id',
      sql<Record<string, string>>`coalesce(g.payload->'resources', '{}'::jsonb)`.as('resources'),
      createdAt.as('created_at'),
      'g.last_used_at',
      'g.expires_at',
      'g.project_ids',
    ])
    .where('g.model', '=', 'Grant')
    .where('p.workspace_id', '=', principal.workspaceId)
    // An app's token always sees the grant it acts through, whatever subset of it it holds.
    .where((eb) =>
      eb.or([
        coveredBy(caller.credential, grantScopes, 'g.project_ids'),
        eb('g.grant_id', '=', caller.credential.id),
      ]),
    )
  if (!canAdminister(principal)) query = query.where('p.id', '=', principal.actorId)
  if (filters.ids) query = query.where('g.grant_id', 'in', [...filters.ids])
  if (filters.client_id) query = query.where('g.client_id', '=', filters.client_id)
  if (filters.person_id) query = query.where('p.id', '=', filters.person_id)
  if (after) {
    query = query.where(
      sql<boolean>`(${createdAt}, g.grant_id) < (${after[0]}::timestamptz, ${after[1]}::text)`,
    )
  }
  const rows = await query
    .orderBy(createdAt, 'desc')
    .orderBy('g.grant_id', 'desc')
    .limit(limit + 1)
    .execute()
  return rows.map(({ resources, ...row }) => ({
    ...row,
    id: row.id as string,
    client_id: row.client_id as string,
    expires_at: row.expires_at as Date,
    scopes: Object.values(resources)
      .flatMap((scope) => scope.split(' '))
      .sort(),
  }))
}

/**
 * Every live grant a person holds, whatever credential asks: what deactivating the person ends
 * (graph/people/person-credentials.ts), which answers to `people:write`, not to coverage.
 */
export async function grantsOfPerson(
  db: Db,
  workspaceId: string,
  personId: string,
): Promise<OAuthGrantRow[]> {
  const rows = await db
    .selectFrom('oauth_artifacts as g')
    .innerJoin('people as p', 'p.id', 'g.account_id')
    .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
    .select([
      'g.grant_id as id',
      'g.client_id',
      'c.name as client_name',
      'p.id as person_id',
      sql<Record<string, string>>`coalesce(g.payload->'resources', '{}'::jsonb)`.as('resources'),
      sql<Date>`to_timestamp((g.payload->>'iat')::double precision)`.as('created_at'),
      'g.last_used_at',
      'g.expires_at',
      'g.project_ids',
    ])
    .where('g.model', '=', 'Grant')
    .where('p.workspace_id', '=', workspaceId)
    .where('p.id', '=', personId)
    .orderBy('g.grant_id')
    .execute()
  return rows.map(({ resources, ...row }) => ({
    ...row,
    id: row.id as string,
    client_id: row.client_id as string,
    expires_at: row.expires_at as Date,
    scopes: Object.values(resources)
      .flatMap((scope) => scope.split(' '))
      .sort(),
  }))
}
