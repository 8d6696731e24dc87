import type { Selectable } from 'kysely'
import type { Visibility } from '../../access/visibility.ts'
import { actorRefVisible } from '../../access/visible-refs.ts'
import type { Db } from '../../db/database.ts'
import type { CheckinsTable, KeyResultsTable } from '../../db/tables/okr.table.ts'

/** A key result row. */
export type KeyResultRow = Selectable<KeyResultsTable>

/** A check-in row and whether its author is visible. */
export type CheckinRow = Selectable<CheckinsTable> & { author_visible: boolean }

/** A key result the principal may open: one whose objective is open. */
export async function findKeyResult(
  db: Db,
  visibility: Visibility,
  id: string,
): Promise<KeyResultRow | undefined> {
  return db
    .selectFrom('key_results as k')
    .innerJoin('resource_index as r', (join) =>
      join.onRef('r.workspace_id', '=', 'k.workspace_id').onRef('r.id', '=', 'k.objective_id'),
    )
    .selectAll('k')
    .where('k.workspace_id', '=', visibility.principal.workspaceId)
    .where('k.id', '=', id)
    .where(visibility.row())
    .executeTakeFirst()
}

/** Check-ins the principal may open (their objective is open), newest first. */
export async function listCheckins(
  db: Db,
  visibility: Visibility,
  filters: { ids?: readonly string[]; key_result_id?: string; objective_id?: string },
  limit: number,
): Promise<CheckinRow[]> {
  let query = db
    .selectFrom('checkins as c')
    .innerJoin('resource_index as r', (join) =>
      join.onRef('r.workspace_id', '=', 'c.workspace_id').onRef('r.id', '=', 'c.objective_id'),
    )
    .selectAll('c')
    .select(actorRefVisible(visibility, 'c.author_id').as('author_visible'))
    .where('c.workspace_id', '=', visibility.principal.workspaceId)
    .where(visibility.row())
  if (filters.ids) query = query.where('c.id', 'in', [...filters.ids])
  if (filters.key_result_id) query = query.where('c.key_result_id', '=', filters.key_result_id)
  if (filters.objective_id) query = query.where('c.objective_id', '=', filters.objective_id)
  return query.orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').limit(limit).execute()
}
