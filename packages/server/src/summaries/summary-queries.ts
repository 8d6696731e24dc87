import { sql } from 'kysely'
import type { Visibility } from '../access/visibility.ts'
import type { Db } from '../db/database.ts'

/** A visible thing's display name and kind. */
export interface Named {
  title: string
  type: string
  /** Its version (an integration's `created_at`: nothing of it is ever edited). */
  updated_at: Date
}

/**
 * Display names of the ids the principal may see (people and teams by name, content by title, a
 * comment by its opening words), in one query. Hidden and unknown ids are simply absent.
 */
export async function visibleNames(
  db: Db,
  visibility: Visibility,
  ids: Iterable<string | null | undefined>,
): Promise<Map<string, Named>> {
  const list = [...new Set([...ids].filter((id): id is string => !!id))]
  if (list.length === 0) return new Map()
  const ws = visibility.principal.workspaceId
  const wanted = sql`${sql.val(list)}::text[]`
  const rows = await sql<{ id: string; title: string; type: string; updated_at: Date }>`
    select r.id, case when r.type = 'comment' then left(r.body, 80) else r.title end as title, r.type, r.updated_at
    from resource_index r where r.workspace_id = ${ws} and r.id = any(${wanted}) and ${visibility.row('r')}
    union all
    select p.id, p.name, 'person', p.updated_at from people p where p.workspace_id = ${ws} and p.id = any(${wanted}) and ${visibility.person('p')}
    union all
    select t.id, t.name, 'team', t.updated_at from teams t where t.workspace_id = ${ws} and t.id = any(${wanted}) and ${visibility.team('t')}
    union all
    select i.id, i.name, 'integration', i.created_at from integrations i where i.workspace_id = ${ws} and i.id = any(${wanted}) and ${visibility.integration('i')}`.execute(
    db,
  )
  return new Map(
    rows.rows.map((row) => [
      row.id,
      { title: row.title, type: row.type, updated_at: row.updated_at },
    ]),
  )
}

/**
 * Whether a token that reads these kinds may be told a name of this type: an integration's, as a
 * person's, needs `people:read`.
 */
export function nameReadable(type: string, readableKinds: readonly string[]): boolean {
  return readableKinds.includes(type === 'integration' ? 'person' : type)
}

/**
 * The display names (`visibleNames`) of the ids the caller may see, of kinds its token may read:
 * what an answer says instead of an id.
 */
export async function readableNames(
  db: Db,
  caller: { visibility: Visibility; readableKinds: readonly string[] },
  ids: Iterable<string | null | undefined>,
): Promise<Map<string, string>> {
  const named = await visibleNames(db, caller.visibility, ids)
  return new Map(
    [...named]
      .filter(([, name]) => nameReadable(name.type, caller.readableKinds))
      .map(([id, name]) => [id, name.title]),
  )
}

/** Counts of the tasks the principal may open among those matching a filter. */
export interface TaskStats {
  total: number
  open: number
  done: number
  overdue: number
  blocked: number
}

/** Which tasks to count. */
export type TaskScope =
  | { projectId: string }
  | { assigneeId: string }
  | { parentId: string }
  | { canvasId: string }

function scopeCondition(scope: TaskScope) {
  if ('projectId' in scope) return sql`t.project_id = ${scope.projectId}`
  if ('assigneeId' in scope) return sql`t.assignee_id = ${scope.assigneeId}`
  if ('parentId' in scope) return sql`t.parent_id = ${scope.parentId}`
  return sql`t.canvas_id = ${scope.canvasId}`
}

/** Task counts over visible tasks only: a hidden task never changes a number. */
export async function taskStats(
  db: Db,
  visibility: Visibility,
  scope: TaskScope,
  today: string,
): Promise<TaskStats> {
  const ws = visibility.principal.workspaceId
  const row = await sql<TaskStats>`
    select count(*)::int as total,
      (count(*) filter (where t.status <> 'done'))::int as open,
      (count(*) filter (where t.status = 'done'))::int as done,
      (count(*) filter (where t.status <> 'done' and t.due < ${today}::date))::int as overdue,
      (count(*) filter (where t.status = 'blocked'))::int as blocked
    from tasks t
    join resource_index r on r.workspace_id = t.workspace_id and r.id = t.id
    where t.workspace_id = ${ws} and ${scopeCondition(scope)} and ${visibility.row('r')}`.execute(
    db,
  )
  return row.rows[0] ?? { total: 0, open: 0, done: 0, overdue: 0, blocked: 0 }
}

/** A visible task in a summary's list. */
export interface TaskLine {
  id: string
  title: string
  status: string
  due: string | null
  assignee_id: string | null
  updated_at: Date
}

/**
 * Which of a scope's tasks to list: `blocked`, `overdue` (oldest due date first), `next` (open,
 * due today or later, soonest first), or `any` (overdue first, then open by due date, then done).
 */
export type TaskPick = 'blocked' | 'overdue' | 'next' | 'any'

function pickCondition(pick: TaskPick, today: string) {
  if (pick === 'blocked') return sql`t.status = 'blocked'`
  if (pick === 'overdue') return sql`t.status <> 'done' and t.due < ${today}::date`
  if (pick === 'next') return sql`t.status <> 'done' and t.due >= ${today}::date`
  return sql`true`
}

/** Visible tasks of a scope, as picked; filtered in the statement: no hidden task takes a row. */
export async function tasksToMention(
  db: Db,
  visibility: Visibility,
  scope: TaskScope,
  today: string,
  limit: number,
  pick: TaskPick = 'any',
): Promise<TaskLine[]> {
  const ws = visibility.principal.workspaceId
  const rows = await sql<TaskLine>`
    select t.id, t.title, t.status, t.due, t.assignee_id, t.updated_at
    from tasks t
    join resource_index r on r.workspace_id = t.workspace_id and r.id = t.id
    where t.workspace_id = ${ws} and ${scopeCondition(scope)} and ${pickCondition(pick, today)}
      and ${visibility.row('r')}
    order by coalesce(t.status <> 'done' and t.due < ${today}::date, false) desc, (t.status = 'done'), t.due nulls last, t.id
    limit ${limit}`.execute(db)
  return rows.rows
}
