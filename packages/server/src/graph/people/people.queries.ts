import { type Selectable, sql } from 'kysely'
import type { Visibility } from '../../access/visibility.ts'
import type { Db } from '../../db/database.ts'
import type { PeopleTable, TeamsTable } from '../../db/tables/workspace.table.ts'
import type { CursorPosition } from '../../lib/cursor.ts'

/** A person row (without the password hash and the linked identity) and their visible teams. */
export type PersonRow = Omit<
  Selectable<PeopleTable>,
  'password_hash' | 'tsv' | 'sso_issuer' | 'sso_subject'
> & {
  team_ids: string[]
}

/** A team row and its visible members. */
export type TeamRow = Omit<Selectable<TeamsTable>, 'tsv'> & { member_ids: string[] }

// Directory order: by name, then id for ties.
function byNameAfter(alias: string, after: CursorPosition | null) {
  if (!after) return sql<boolean>`true`
  return sql<boolean>`(${sql.ref(`${alias}.name`)}, ${sql.ref(`${alias}.id`)}) > (${after[0]}::text, ${after[1]}::text)`
}

/** The keyset position of a person or team in the directory. */
export function namePosition(row: { name: string; id: string }): CursorPosition {
  return [row.name, row.id]
}

/** People the principal may see, by name; `limit + 1` rows. */
export async function listPeople(
  db: Db,
  visibility: Visibility,
  filters: { ids?: readonly string[]; team_id?: string | undefined },
  after: CursorPosition | null,
  limit: number,
): Promise<PersonRow[]> {
  let query = db
    .selectFrom('people as p')
    .select([
      'p.workspace_id',
      'p.id',
      'p.name',
      'p.email',
      'p.role',
      'p.created_at',
      'p.updated_at',
      'p.deactivated_at',
    ])
    .select(
      sql<string[]>`array(
        select t.id from team_members tm join teams t on t.workspace_id = tm.workspace_id and t.id = tm.team_id
        where tm.workspace_id = p.workspace_id and tm.person_id = p.id and ${visibility.team('t')}
        order by t.id)`.as('team_ids'),
    )
    .where(visibility.person())
    .where(byNameAfter('p', after))
  if (filters.ids) query = query.where('p.id', 'in', [...filters.ids])
  if (filters.team_id) {
    const teamId = filters.team_id
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('team_members as tm')
          .select('tm.person_id')
          .whereRef('tm.workspace_id', '=', 'p.workspace_id')
          .whereRef('tm.person_id', '=', 'p.id')
          .where('tm.team_id', '=', teamId),
      ),
    )
  }
  return query
    .orderBy('p.name')
    .orderBy('p.id')
    .limit(limit + 1)
    .execute()
}

/** Teams the principal may see, by name; `limit + 1` rows. */
export async function listTeams(
  db: Db,
  visibility: Visibility,
  filters: { ids?: readonly string[] },
  after: CursorPosition | null,
  limit: number,
): Promise<TeamRow[]> {
  let query = db
    .selectFrom('teams as t')
    .select(['t.workspace_id', 't.id', 't.name', 't.created_at', 't.updated_at'])
    .select(
      sql<string[]>`array(
        select p.id from team_members tm join people p on p.workspace_id = tm.workspace_id and p.id = tm.person_id
        where tm.workspace_id = t.workspace_id and tm.team_id = t.id and ${visibility.person('p')}
        order by p.id)`.as('member_ids'),
    )
    .where(visibility.team())
    .where(byNameAfter('t', after))
  if (filters.ids) query = query.where('t.id', 'in', [...filters.ids])
  return query
    .orderBy('t.name')
    .orderBy('t.id')
    .limit(limit + 1)
    .execute()
}
