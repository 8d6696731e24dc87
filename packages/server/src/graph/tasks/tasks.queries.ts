import type { Selectable } from 'kysely'
import type { Visibility } from '../../access/visibility.ts'
import { actorRefVisible, indexedRefVisible, personRefVisible } from '../../access/visible-refs.ts'
import type { Db } from '../../db/database.ts'
import type { TasksTable } from '../../db/tables/task.table.ts'
import type { CursorPosition } from '../../lib/cursor.ts'
import { visiblePage } from '../visible-page.ts'

/** A task row and whether each of its links is visible to the principal. */
export type TaskRow = Selectable<TasksTable> & {
  project_visible: boolean
  parent_visible: boolean
  canvas_visible: boolean
  assignee_visible: boolean
  creator_visible: boolean
}

/** Filters of a task list, already checked to name visible resources. */
export interface TaskFilters {
  ids?: readonly string[]
  project_id?: string | undefined
  assignee_id?: string | undefined
  status?: readonly string[] | undefined
  due_before?: string | undefined
  due_after?: string | undefined
}

/**
 * Tasks the principal may open, newest first after a keyset position; `limit + 1` rows. The page
 * is chosen first (visibility, filters, order, limit) and only its rows get their link checks,
 * so a link check can never be planned as a scan of the whole index.
 */
export async function listTasks(
  db: Db,
  visibility: Visibility,
  filters: TaskFilters,
  after: CursorPosition | null,
  limit: number,
): Promise<TaskRow[]> {
  const { assignee_id, due_before, due_after } = filters
  const status = filters.status as TaskRow['status'][] | undefined
  const page = visiblePage(db, visibility, 'task', filters, after, limit, (rows) =>
    // Filters on task columns join the task only when asked, so an unfiltered list keeps walking
    // the resource index in order and stops after one page.
    assignee_id || status?.length || due_before || due_after
      ? rows.where(({ exists, selectFrom }) => {
          let task = selectFrom('tasks as t')
            .select('t.id')
            .whereRef('t.workspace_id', '=', 'r.workspace_id')
            .whereRef('t.id', '=', 'r.id')
          if (assignee_id) task = task.where('t.assignee_id', '=', assignee_id)
          if (status?.length) task = task.where('t.status', 'in', status)
          if (due_before) task = task.where('t.due', '<=', due_before)
          if (due_after) task = task.where('t.due', '>=', due_after)
          return exists(task)
        })
      : rows,
  )
  return db
    .selectFrom(page)
    .innerJoin('tasks as t', (join) =>
      join
        .on('t.workspace_id', '=', visibility.principal.workspaceId)
        .onRef('t.id', '=', 'page.id'),
    )
    .selectAll('t')
    .select(taskLinksVisible(visibility))
    .orderBy('page.created_at', 'desc')
    .orderBy('page.id', 'desc')
    .execute()
}

/** Whether each link of the task row `t` names something the principal may see: TaskRow's flags. */
export function taskLinksVisible(visibility: Visibility) {
  return [
    indexedRefVisible(visibility, 't.project_id').as('project_visible'),
    indexedRefVisible(visibility, 't.parent_id').as('parent_visible'),
    indexedRefVisible(visibility, 't.canvas_id').as('canvas_visible'),
    personRefVisible(visibility, 't.assignee_id').as('assignee_visible'),
    actorRefVisible(visibility, 't.creator_id').as('creator_visible'),
  ]
}
