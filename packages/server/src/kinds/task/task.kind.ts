import { sql } from 'kysely'
import type { AccessReason } from '../../access/access-reason.ts'
import type { OwnReasons } from '../../access/access-reasons.ts'
import { type IndexRows, onlyIds } from '../../access/resource-index.ts'
import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { createdPosition } from '../../db/keyset.ts'
import type { LinkEdges } from '../../graph/links/link-edges.ts'
import { type ListByIds, recordFromList } from '../../graph/resources/load-record.ts'
import { presentTask } from '../../graph/tasks/tasks.present.ts'
import { listTasks } from '../../graph/tasks/tasks.queries.ts'
import { taskRoutes } from '../../graph/tasks/tasks.routes.ts'
import { TASK_STATUSES, TaskRecord } from '../../graph/tasks/tasks.schemas.ts'
import { isOverdue, utcDay } from '../../lib/overdue.ts'
import { itemUrl, type ListSource } from '../../mcp/tools/list-source.ts'
import { readableNames } from '../../summaries/summary-queries.ts'
import { taskPage } from './task.page.ts'
import { summarizeTask } from './task.summary.ts'

/**
 * A task's row: its project's rule (no project: nobody but its creator and assignee), and its
 * creator and assignee.
 */
const taskIndexRows: IndexRows = {
  titled: true,
  rows: (
    ws,
    ids,
    source = sql.table('tasks'),
  ) => sql`select t.workspace_id, t.id, 'task', t.project_id, t.title, t.description,
           coalesce(p.visibility = 'workspace', false),
           array(select distinct x from unnest(array[t.project_id, t.creator_id, t.assignee_id]) x
                 where x is not null order by x),
           t.created_at, t.updated_at
    from ${source} t
    left join projects p on p.workspace_id = t.workspace_id and p.id = t.project_id
    where t.workspace_id = ${ws} ${onlyIds(sql.ref('t.id'), ids)}`,
}

/** The tasks among `ids` the caller may open: what its record and page names read. */
const byIds: ListByIds<Awaited<ReturnType<typeof listTasks>>[number]> = (deps, caller, ids) =>
  listTasks(deps.db, caller.visibility, { ids }, null, ids.length)

/** A task as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
const taskRecord = recordFromList(TaskRecord, byIds, (row, deps) =>
  presentTask(row, deps.urls, deps.clock.now()),
)

/** The neighbours of a task, as `(rel, rank, id)` rows. */
const taskLinks: LinkEdges = (ws, id) => sql`
    select 'project' as rel, 1 as rank, project_id as id from tasks where workspace_id = ${ws} and id = ${id} and project_id is not null
    union all select 'parent', 2, parent_id from tasks where workspace_id = ${ws} and id = ${id} and parent_id is not null
    union all select 'subtask', 3, id from tasks where workspace_id = ${ws} and parent_id = ${id}
    union all select 'canvas', 4, canvas_id from tasks where workspace_id = ${ws} and id = ${id} and canvas_id is not null
    union all select 'assignee', 5, assignee_id from tasks where workspace_id = ${ws} and id = ${id} and assignee_id is not null
    union all select 'creator', 6, creator_id from tasks where workspace_id = ${ws} and id = ${id}
    union all select 'linked_from', 7, canvas_id from canvas_links where workspace_id = ${ws} and target_id = ${id}`

/** Why a task is open to the principal itself: the columns that put it in the ACL. */
const taskReasons: OwnReasons = async (db, principal, id, holds) => {
  const reasons: AccessReason[] = []
  const task = await db
    .selectFrom('tasks')
    .select(['creator_id', 'assignee_id'])
    .where('workspace_id', '=', principal.workspaceId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  if (holds(task.creator_id)) reasons.push({ kind: 'creator' })
  if (holds(task.assignee_id)) reasons.push({ kind: 'assignee' })
  return reasons
}

/** How the MCP `list` tool reads tasks: the query of their `/v1` list. */
const taskList: ListSource = {
  filters: ['project_id', 'assignee_id', 'status', 'due_before', 'due_after'],
  statuses: TASK_STATUSES,
  references: (f) => [
    ['/project_id', 'project', f.project_id],
    ['/assignee_id', 'person', f.assignee_id],
  ],
  async load(session, filters, after, limit) {
    const { db } = session.deps
    const rows = await listTasks(db, session.caller.visibility, filters, after, limit)
    // Names, not ids, of the people and projects the caller may see: what an agent asks next.
    const names = await readableNames(db, session.caller, [
      ...rows.map((row) => (row.assignee_visible ? row.assignee_id : null)),
      ...rows.map((row) => (row.project_visible ? row.project_id : null)),
    ])
    const nameOf = (id: string | null) => (id ? (names.get(id) ?? null) : null)
    const today = utcDay(session.deps.clock.now())
    return rows.map((row) => ({
      id: row.id,
      type: 'task',
      title: row.title,
      url: itemUrl(session, 'task', row.id),
      facts: {
        status: row.status,
        due: row.due,
        overdue: isOverdue(row, today),
        assignee: nameOf(row.assignee_visible ? row.assignee_id : null),
        project: nameOf(row.project_visible ? row.project_id : null),
      },
      position: createdPosition(row),
    }))
  },
}

/** The task kind: its catalogue data and the parts its consumers read. */
export const taskKind: KindDescriptor = {
  ...KINDS.task,
  summarize: summarizeTask,
  index: taskIndexRows,
  list: taskList,
  record: taskRecord,
  links: taskLinks,
  page: taskPage,
  names: byIds,
  routes: taskRoutes,
  reasons: taskReasons,
  webhookEvents: {
    'task.created': { title: 'TaskCreatedEvent', object: TaskRecord, about: 'A task was made.' },
    'task.completed': {
      title: 'TaskCompletedEvent',
      object: TaskRecord,
      about: 'A task was marked done; the record has `completed_at`.',
    },
    'task.updated': {
      title: 'TaskUpdatedEvent',
      object: TaskRecord,
      about:
        'A task changed its title, description, status (other than to done), assignee or due date.',
    },
  },
}
