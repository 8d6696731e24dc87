import { createdPosition } from '../../db/keyset.ts'
import { listTasks } from '../../graph/tasks/tasks.queries.ts'
import { TASK_STATUSES } from '../../graph/tasks/tasks.schemas.ts'
import { itemUrl, type ListSource } from '../../mcp/tools/list-source.ts'

/** How the MCP `list` tool reads tasks: the query of their `/v1` list. */
export const taskList: ListSource = {
  filters: ['project_id', 'assignee_id', 'status'],
  statuses: TASK_STATUSES,
  references: (f) => [
    ['/project_id', 'project', f.project_id],
    ['/assignee_id', 'person', f.assignee_id],
  ],
  async load(session, filters, after, limit) {
    const { db } = session.deps
    const rows = await listTasks(db, session.caller.visibility, filters, after, limit)
    return rows.map((row) => ({
      id: row.id,
      type: 'task',
      title: row.title,
      url: itemUrl(session, 'task', row.id),
      facts: { status: row.status, due: row.due, assignee_id: row.assignee_id },
      position: createdPosition(row),
    }))
  },
}
