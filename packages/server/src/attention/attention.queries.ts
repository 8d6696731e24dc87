import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { Visibility } from '../access/visibility.ts'
import type { Db } from '../db/database.ts'
import { latestConfidence } from '../graph/okrs/okrs.queries.ts'
import type { AttentionFocus } from './attention-focus.ts'

/** How many days ahead a due date counts as due soon (today included). */
export const DUE_SOON_DAYS = 7

/** The tasks that need attention, counted over what the caller may open. */
export interface AttentionCounts {
  /** Every open task that is overdue, blocked or due soon, each once. */
  total: number
  overdue: number
  blocked: number
  due_soon: number
}

/** An open task that needs attention: overdue, blocked or due soon. */
export interface AttentionTask {
  id: string
  title: string
  status: string
  due: string | null
  assignee_id: string | null
  project_id: string | null
  updated_at: Date
}

/** An objective of a current period, with what its health is computed from. */
export interface AttentionObjective {
  id: string
  title: string
  session: string
  progress: number
  owner_id: string
  updated_at: Date
  /** The confidence of its latest check-in that gave one. */
  confidence: number | null
}

// Whose tasks: a person's, a project's, a team's visible members', or every task.
function taskFocus(focus: AttentionFocus, visibility: Visibility): RawBuilder<SqlBool> {
  if (focus.type === 'person') return sql<SqlBool>`t.assignee_id = ${focus.id}`
  if (focus.type === 'project') return sql<SqlBool>`t.project_id = ${focus.id}`
  if (focus.type === 'team')
    return sql<SqlBool>`t.assignee_id in (
      select tm.person_id from team_members tm
      where tm.workspace_id = t.workspace_id and tm.team_id = ${focus.id}
        and ${visibility.personId('tm.person_id')})`
  return sql<SqlBool>`true`
}

// Which objectives: a person's (as owner), a project's, a team's, or every one.
function objectiveFocus(focus: AttentionFocus): RawBuilder<SqlBool> {
  if (focus.type === 'person') return sql<SqlBool>`o.owner_id = ${focus.id}`
  if (focus.type === 'project') return sql<SqlBool>`o.project_id = ${focus.id}`
  if (focus.type === 'team') return sql<SqlBool>`o.team_id = ${focus.id}`
  return sql<SqlBool>`true`
}

// An open task that is overdue, blocked, or due from today to the end of the due-soon window.
function needsAttention(today: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`t.status <> 'done' and (t.status = 'blocked'
    or t.due < ${today}::date + ${DUE_SOON_DAYS}::int)`
}

/** How many visible open tasks of the focus are overdue, blocked and due soon. */
export async function countAttentionTasks(
  db: Db,
  visibility: Visibility,
  focus: AttentionFocus,
  today: string,
): Promise<AttentionCounts> {
  const rows = await sql<AttentionCounts>`
    select count(*)::int as total,
      (count(*) filter (where t.due < ${today}::date))::int as overdue,
      (count(*) filter (where t.status = 'blocked'))::int as blocked,
      (count(*) filter (where t.due >= ${today}::date))::int as due_soon
    from tasks t
    join resource_index r on r.workspace_id = t.workspace_id and r.id = t.id
    where t.workspace_id = ${visibility.principal.workspaceId} and ${taskFocus(focus, visibility)}
      and ${needsAttention(today)} and ${visibility.row('r')}`.execute(db)
  return rows.rows[0] ?? { total: 0, overdue: 0, blocked: 0, due_soon: 0 }
}

/**
 * The visible open tasks of the focus that need attention, most pressing first: overdue (the
 * longest overdue first), then blocked, then due soon (the soonest first); `limit` of them.
 */
export async function attentionTasks(
  db: Db,
  visibility: Visibility,
  focus: AttentionFocus,
  today: string,
  limit: number,
): Promise<AttentionTask[]> {
  const rows = await sql<AttentionTask>`
    select t.id, t.title, t.status, t.due, t.assignee_id, t.project_id, t.updated_at
    from tasks t
    join resource_index r on r.workspace_id = t.workspace_id and r.id = t.id
    where t.workspace_id = ${visibility.principal.workspaceId} and ${taskFocus(focus, visibility)}
      and ${needsAttention(today)} and ${visibility.row('r')}
    order by case when t.due < ${today}::date then 0 when t.status = 'blocked' then 1 else 2 end,
      t.due nulls last, t.updated_at, t.id
    limit ${limit}`.execute(db)
  return rows.rows
}

/**
 * The visible open objectives of the focus in these sessions (those of the current periods), with
 * their latest confidence: the caller computes their health. A closed one needs no attention.
 */
export async function currentObjectives(
  db: Db,
  visibility: Visibility,
  focus: AttentionFocus,
  sessions: readonly string[],
): Promise<AttentionObjective[]> {
  const rows = await sql<AttentionObjective>`
    select o.id, o.title, o.session, o.progress, o.owner_id, o.updated_at,
      ${latestConfidence()} as confidence
    from objectives o
    join resource_index r on r.workspace_id = o.workspace_id and r.id = o.id
    where o.workspace_id = ${visibility.principal.workspaceId} and ${objectiveFocus(focus)}
      and upper(o.session) = any(${sql.val([...sessions])}::text[]) and o.status = 'open'
      and ${visibility.row('r')}
    order by o.progress, o.id`.execute(db)
  return rows.rows.map((row) => ({ ...row, progress: Number(row.progress) }))
}
