import { type RawBuilder, sql } from 'kysely'
import type { Visibility } from './visibility.ts'

/*
 * SQL booleans that say whether the id in a column names something the principal can see, for
 * link fields (`project_id`, `assignee_id`, …) computed in the same statement as the record.
 * A null column is "not visible", so presenters can write `visible ? id : null`.
 */

/** The column names a project, canvas, task, objective or comment the principal may open. */
export function indexedRefVisible(visibility: Visibility, column: string): RawBuilder<boolean> {
  return sql<boolean>`exists(select 1 from resource_index x where x.workspace_id = ${visibility.principal.workspaceId} and x.id = ${sql.ref(column)} and ${visibility.row('x')})`
}

/** The column names a person the principal may see. */
export function personRefVisible(visibility: Visibility, column: string): RawBuilder<boolean> {
  return sql<boolean>`${visibility.personId(column)}`
}

/** The column names a team the principal may see. */
export function teamRefVisible(visibility: Visibility, column: string): RawBuilder<boolean> {
  return sql<boolean>`${visibility.teamId(column)}`
}

/** The column names an actor (a person or an integration) the principal may see. */
export function actorRefVisible(visibility: Visibility, column: string): RawBuilder<boolean> {
  return sql<boolean>`${visibility.actorId(column)}`
}
