import type { Static } from 'typebox'
import { isOverdue, utcDay } from '../../lib/overdue.ts'
import type { UrlBuilder } from '../../lib/resource-urls.ts'
import type { TaskRow } from './tasks.queries.ts'
import type { TaskRecord } from './tasks.schemas.ts'

/**
 * A task as the API shows it at `now` (whether it is overdue is worked out then); hidden links
 * are null.
 */
export function presentTask(row: TaskRow, urls: UrlBuilder, now: Date): Static<typeof TaskRecord> {
  return {
    id: row.id,
    type: 'task',
    ...urls.resource(row.workspace_id, 'task', row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    title: row.title,
    description: row.description,
    status: row.status,
    due: row.due,
    overdue: isOverdue(row, utcDay(now)),
    assignee_id: row.assignee_visible ? row.assignee_id : null,
    parent_id: row.parent_visible ? row.parent_id : null,
    project_id: row.project_visible ? row.project_id : null,
    canvas_id: row.canvas_visible ? row.canvas_id : null,
    creator_id: row.creator_visible ? row.creator_id : null,
    completed_at: row.completed_at?.toISOString() ?? null,
  }
}
