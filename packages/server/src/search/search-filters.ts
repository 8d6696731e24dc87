import { type RawBuilder, sql } from 'kysely'
import type { Visibility } from '../access/visibility.ts'
import type { Db } from '../db/database.ts'
import { type HealthVerdict, okrHealth } from '../graph/okrs/okr-health.ts'
import { latestConfidence } from '../graph/okrs/okrs.queries.ts'
import { foldedSql, foldName } from '../lib/folded-names.ts'
import { MY_TEAM, type TaskStatus } from './question-vocabulary.ts'
import type { SearchKind } from './search.schemas.ts'
import type { SearchFilterValues } from './search-filter-values.ts'

/*
 * Search filters (docs/api.md, "Search"): which kinds each applies to, how a name or id is
 * resolved against what the caller may open, and the SQL of each. A filter on an id the caller
 * cannot open resolves exactly as an unknown id does, so the answer never tells the two apart.
 */

/** Filters with every reference resolved to an id the caller may open. */
export interface ResolvedFilters {
  status?: TaskStatus[]
  assigneeId?: string
  /** Tasks nobody is assigned. */
  unassigned?: boolean
  /** Tasks without a due date. */
  undated?: boolean
  projectId?: string
  dueBefore?: string
  dueAfter?: string
  updatedAfter?: string
  updatedBefore?: string
  completedAfter?: string
  completedBefore?: string
  createdAfter?: string
  createdBefore?: string
  /** The objectives, among those the caller may open, whose health the filter asked for. */
  objectiveIds?: string[]
  /** A team the caller may see: its members, its projects, its members' tasks. */
  teamId?: string
  createdBy?: string
  /** The projects, among those the caller may open, that the `member` filter's person is on. */
  memberProjectIds?: string[]
  /** The projects, canvases and objectives the caller may open that `owner`'s person owns. */
  ownedIds?: string[]
  /** What the comments are on, one the caller may open. */
  onId?: string
}

// Kinds that have the field: a filter on it keeps only these (status: tasks only).
const TASK_ONLY: readonly SearchKind[] = ['task']
const OBJECTIVES_ONLY: readonly SearchKind[] = ['okr']
const TEAM_KINDS: readonly SearchKind[] = ['person', 'project', 'task']
const AUTHORED: readonly SearchKind[] = ['task', 'comment', 'activity']
const PROJECTS_ONLY: readonly SearchKind[] = ['project']
const OWNED: readonly SearchKind[] = ['project', 'canvas', 'okr']
const COMMENTS_ONLY: readonly SearchKind[] = ['comment']

/** The kinds a search with these filters can return, in the order given. */
export function kindsFor(filters: ResolvedFilters, types: readonly SearchKind[]): SearchKind[] {
  let kinds = [...types]
  if (isTaskFilter(filters)) kinds = kinds.filter((type) => TASK_ONLY.includes(type))
  if (filters.objectiveIds) kinds = kinds.filter((type) => OBJECTIVES_ONLY.includes(type))
  if (filters.teamId) kinds = kinds.filter((type) => TEAM_KINDS.includes(type))
  if (filters.createdBy) kinds = kinds.filter((type) => AUTHORED.includes(type))
  if (filters.memberProjectIds) kinds = kinds.filter((type) => PROJECTS_ONLY.includes(type))
  if (filters.ownedIds) kinds = kinds.filter((type) => OWNED.includes(type))
  if (filters.onId) kinds = kinds.filter((type) => COMMENTS_ONLY.includes(type))
  return kinds
}

/**
 * Resolves `me` and checks every id against what the caller may open; null when one is hidden or
 * unknown (the search then finds nothing, whichever it was).
 */
export async function resolveFilters(
  db: Db,
  visibility: Visibility,
  values: SearchFilterValues,
  now: Date,
): Promise<ResolvedFilters | null> {
  const me = visibility.principal.actorId
  const ws = visibility.principal.workspaceId
  const resolved: ResolvedFilters = {
    ...(values.status ? { status: values.status } : {}),
    ...(values.due_before ? { dueBefore: values.due_before } : {}),
    ...(values.due_after ? { dueAfter: values.due_after } : {}),
    ...(values.updated_after ? { updatedAfter: values.updated_after } : {}),
    ...(values.updated_before ? { updatedBefore: values.updated_before } : {}),
    ...(values.completed_after ? { completedAfter: values.completed_after } : {}),
    ...(values.completed_before ? { completedBefore: values.completed_before } : {}),
    ...(values.created_after ? { createdAfter: values.created_after } : {}),
    ...(values.created_before ? { createdBefore: values.created_before } : {}),
  }
  if (values.health) {
    resolved.objectiveIds = await objectivesOfHealth(db, visibility, values.health, now)
  }
  if (values.assignee === 'none') resolved.unassigned = true
  if (values.due === 'none') resolved.undated = true
  // `me` or a person the caller may see; null for anyone else, hidden or unknown alike.
  const seenPerson = async (value: string) => {
    const id = value === 'me' ? me : value
    const seen = await sql<{ id: string }>`
      select p.id from people p where p.workspace_id = ${ws} and p.id = ${id}
        and ${visibility.person('p')}`.execute(db)
    return seen.rows.length === 0 ? null : id
  }
  if (values.assignee !== undefined && values.assignee !== 'none') {
    const id = await seenPerson(values.assignee)
    if (id === null) return null
    resolved.assigneeId = id
  }
  if (values.member !== undefined) {
    const id = await seenPerson(values.member)
    if (id === null) return null
    resolved.memberProjectIds = await projectsOfMember(db, visibility, id)
  }
  if (values.owner !== undefined) {
    const id = await seenPerson(values.owner)
    if (id === null) return null
    resolved.ownedIds = await ownedBy(db, visibility, id)
  }
  if (values.team !== undefined) {
    const seen = await sql<{ id: string }>`
      select t.id from teams t where t.workspace_id = ${ws} and t.id = ${values.team}
        and ${visibility.team('t')}`.execute(db)
    if (seen.rows.length === 0) return null
    resolved.teamId = values.team
  }
  if (values.created_by !== undefined) {
    const id = values.created_by === 'me' ? me : values.created_by
    const seen = await sql<{ id: string }>`
      select p.id from people p where p.workspace_id = ${ws} and p.id = ${id}
        and ${visibility.person('p')}
      union all
      select i.id from integrations i where i.workspace_id = ${ws} and i.id = ${id}
        and ${visibility.integration('i')}`.execute(db)
    if (seen.rows.length === 0) return null
    resolved.createdBy = id
  }
  if (values.on !== undefined) {
    const seen = await sql<{ id: string }>`
      select r.id from resource_index r
      where r.workspace_id = ${ws} and r.id = ${values.on} and r.type <> 'comment'
        and ${visibility.row('r')}`.execute(db)
    if (seen.rows.length === 0) return null
    resolved.onId = values.on
  }
  if (values.project_id !== undefined) {
    const seen = await sql<{ id: string }>`
      select r.id from resource_index r
      where r.workspace_id = ${ws} and r.id = ${values.project_id} and r.type = 'project'
        and ${visibility.row('r')}`.execute(db)
    if (seen.rows.length === 0) return null
    resolved.projectId = values.project_id
  }
  return resolved
}

/**
 * The projects the caller may open that `person` is on: as a member, as the owner, or through a
 * team the caller may see (a team hidden from the caller must not tell who is on it).
 */
async function projectsOfMember(db: Db, visibility: Visibility, person: string): Promise<string[]> {
  const ws = visibility.principal.workspaceId
  const found = await sql<{ id: string }>`
    select r.id from resource_index r
    join projects p on p.workspace_id = r.workspace_id and p.id = r.id
    where r.workspace_id = ${ws} and r.type = 'project' and ${visibility.row('r')}
      and (p.owner_id = ${person} or r.id in (
        select pm.project_id from project_members pm
        where pm.workspace_id = ${ws} and (pm.person_id = ${person} or pm.team_id in (
          select m.team_id from team_members m
          join teams t on t.workspace_id = m.workspace_id and t.id = m.team_id
          where m.workspace_id = ${ws} and m.person_id = ${person} and ${visibility.team('t')}))))
    order by r.id`.execute(db)
  return found.rows.map((row) => row.id)
}

/** The projects, canvases and objectives the caller may open whose owner is `person`. */
async function ownedBy(db: Db, visibility: Visibility, person: string): Promise<string[]> {
  const ws = visibility.principal.workspaceId
  const found = await sql<{ id: string }>`
    select r.id from resource_index r
    where r.workspace_id = ${ws} and ${visibility.row('r')} and r.id in (
      select id from projects where workspace_id = ${ws} and owner_id = ${person}
      union all select id from canvases where workspace_id = ${ws} and owner_id = ${person}
      union all select id from objectives where workspace_id = ${ws} and owner_id = ${person})
    order by r.id`.execute(db)
  return found.rows.map((row) => row.id)
}

/**
 * The objectives the caller may open whose health today is one of `verdicts` (docs/api.md, "OKR
 * health"): computed here, by the one formula records and summaries use, from each objective's
 * progress, session and latest confidence.
 */
async function objectivesOfHealth(
  db: Db,
  visibility: Visibility,
  verdicts: readonly HealthVerdict[],
  now: Date,
): Promise<string[]> {
  const found = await sql<{ id: string; progress: number; session: string; confidence: number }>`
    select o.id, o.progress, o.session,
      ${latestConfidence()} as confidence
    from objectives o
    join resource_index r on r.workspace_id = o.workspace_id and r.id = o.id
    where o.workspace_id = ${visibility.principal.workspaceId} and ${visibility.row('r')}`.execute(
    db,
  )
  return found.rows
    .filter((row) => {
      const confidence = row.confidence === null ? null : Number(row.confidence)
      const health = okrHealth(Number(row.progress), confidence, row.session, now)
      return health !== null && verdicts.includes(health.verdict)
    })
    .map((row) => row.id)
}

/**
 * The project, among those the caller may open, whose name has every one of `words` (English
 * stems or as written) or starts with them; the shortest such name, then the most recent. Null
 * when none does.
 */
export async function resolveProjectName(
  db: Db,
  visibility: Visibility,
  words: string,
): Promise<{ id: string; name: string } | null> {
  const ws = visibility.principal.workspaceId
  const found = await sql<{ id: string; name: string }>`
    select r.id, r.title as name from resource_index r
    where r.workspace_id = ${ws} and r.type = 'project' and ${visibility.row('r')}
      and ((to_tsvector('english', r.title) || to_tsvector('simple', r.title))
             @@ plainto_tsquery('english', ${words})
           or lower(r.title) like ${`${words.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`})
    order by length(r.title), r.updated_at desc, r.id
    limit 1`.execute(db)
  return found.rows[0] ?? bestCoveringProject(db, visibility, words)
}

/**
 * When no project's name has every word ("brand stuff nobody finished"), the one project whose
 * name has the most of them, by their English stems; null when none has any or two share the
 * most. The words it does not cover stay words to rank by.
 */
async function bestCoveringProject(
  db: Db,
  visibility: Visibility,
  words: string,
): Promise<{ id: string; name: string } | null> {
  // Words of a date are the question's, never a project's name ("the week of November 16").
  const each = [
    ...new Set(words.split(/\s+/).filter((word) => /^\p{L}{3,}$/u.test(word) && !MONTH.test(word))),
  ]
  if (each.length < 2) return null
  const ws = visibility.principal.workspaceId
  const title = sql`(to_tsvector('english', r.title) || to_tsvector('simple', r.title))`
  const covered = sql.join(
    each.map((word) => sql`(${title} @@ plainto_tsquery('english', ${word}))::int`),
    sql` + `,
  )
  const found = await sql<{ id: string; name: string; covered: number }>`
    select * from (
      select r.id, r.title as name, (${covered}) as covered from resource_index r
      where r.workspace_id = ${ws} and r.type = 'project' and ${visibility.row('r')}) c
    where covered > 0
    order by covered desc, length(name), id
    limit 2`.execute(db)
  const [best, next] = found.rows
  // At least half the words must be the project's: one common word among many names nothing.
  const enough = best && best.covered * 2 >= each.length
  return best && enough && (!next || next.covered < best.covered)
    ? { id: best.id, name: best.name }
    : null
}

// A month's name or its short form.
const MONTH = /^(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*$/

/**
 * What a question asks comments on: among the tasks, projects, canvases and objectives of `kinds`
 * the caller may open that have comments (which the caller may open too: a comment is visible
 * exactly where what it is on is), the one whose title has every one of `words` (English stems or
 * as written); the shortest such title, then the most recent. Null when none has.
 */
export async function resolveTitled(
  db: Db,
  visibility: Visibility,
  words: string,
  kinds: readonly string[],
): Promise<{ id: string; type: string; title: string } | null> {
  const ws = visibility.principal.workspaceId
  const wanted = sql`plainto_tsquery('english', ${words})`
  const commentable = kinds.filter((kind) => COMMENTABLE.includes(kind))
  if (commentable.length === 0) return null
  // The whole text's index finds the candidates; the title alone must then have the words.
  const found = await sql<{ id: string; type: string; title: string }>`
    select r.id, r.type, r.title from resource_index r
    where r.workspace_id = ${ws} and r.type = any(${sql.val(commentable)}::text[])
      and r.tsv @@ ${wanted} and ${visibility.row('r')}
      and (to_tsvector('english', r.title) || to_tsvector('simple', r.title)) @@ ${wanted}
      and exists (select from comments c where c.workspace_id = ${ws} and c.resource_id = r.id)
    order by length(r.title), r.updated_at desc, r.id
    limit 1`.execute(db)
  return found.rows[0] ?? null
}

// The kinds a comment may be on.
const COMMENTABLE = ['task', 'project', 'canvas', 'okr']

/**
 * The team, among those the caller may see, that `words` name: its whole name, or else the one
 * whose name has every word ("web" names "Engineering — Web") when only one has; `MY_TEAM`, the
 * one the caller is on. Null when none, or several, do.
 */
export async function resolveTeamName(
  db: Db,
  visibility: Visibility,
  words: readonly string[],
): Promise<{ id: string; name: string } | null> {
  const ws = visibility.principal.workspaceId
  const wanted = words.join(' ').toLowerCase()
  // "my team": the one team the asker is on (a name "my" would be odd; the words say whose).
  const mine = words.length === 1 && words[0] === MY_TEAM
  const found = await sql<{ id: string; name: string; whole: boolean }>`
    select t.id, t.name, lower(t.name) = ${wanted} and not ${mine} as whole from teams t
    where t.workspace_id = ${ws} and ${visibility.team('t')}
      and (${
        mine
          ? sql`t.id in (select m.team_id from team_members m
              where m.workspace_id = ${ws} and m.person_id = ${visibility.principal.actorId})`
          : sql`(lower(t.name) = ${wanted}
           or to_tsvector('simple', t.name) @@ plainto_tsquery('simple', ${wanted}))`
      })
    order by t.id
    limit 20`.execute(db)
  return wholeOrOnly(found.rows)
}

/**
 * The person, among those the caller may see, that `words` name: their whole name, or else the
 * first or last part of it when that names only one of them. Null when none, or several, do.
 */
export async function resolvePersonName(
  db: Db,
  visibility: Visibility,
  words: readonly string[],
): Promise<{ id: string; name: string } | null> {
  const ws = visibility.principal.workspaceId
  const wanted = foldName(words.join(' '))
  const name = foldedSql(sql.ref('p.name'))
  const found = await sql<{ id: string; name: string; whole: boolean }>`
    select p.id, p.name, ${name} = ${wanted} as whole from people p
    where p.workspace_id = ${ws} and ${visibility.person('p')}
      and (${name} = ${wanted} or ${name} like ${`${likePattern(wanted)} %`}
           or ${name} like ${`% ${likePattern(wanted)}`})
    order by p.id
    limit 20`.execute(db)
  return wholeOrOnly(found.rows)
}

/**
 * The one person, among those the caller may see, whose first or last name is exactly one of
 * `words` ("jonas" in "jonas tasks which are late"), and that word; null when no word is such a
 * name, or the words name several people.
 */
export async function resolveBareName(
  db: Db,
  visibility: Visibility,
  words: readonly string[],
): Promise<{ id: string; name: string; word: string } | null> {
  const candidates = [...new Set(words.filter((word) => /^\p{L}{3,}$/u.test(word)))]
  if (candidates.length === 0) return null
  const ws = visibility.principal.workspaceId
  const name = foldedSql(sql.ref('p.name'))
  const found = await sql<{ id: string; name: string; word: string }>`
    select p.id, p.name, w.word from people p
    join unnest(${sql.val(candidates)}::text[], ${sql.val(candidates.map(foldName))}::text[])
        w(word, folded)
      on ${name} like w.folded || ' %' or ${name} like '% ' || w.folded
    where p.workspace_id = ${ws} and ${visibility.person('p')}
    limit 4`.execute(db)
  // "Tara Singh" names her by both words: one person, however many words name her.
  const people = new Set(found.rows.map((row) => row.id))
  return people.size === 1 ? (found.rows[0] ?? null) : null
}

// The row whose whole name the words are, or else the only row; null when several match partly.
function wholeOrOnly<T extends { whole: boolean }>(rows: T[]): T | null {
  return rows.find((row) => row.whole) ?? (rows.length === 1 ? (rows[0] ?? null) : null)
}

// Text matched literally by LIKE.
function likePattern(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&')
}

/** The filters as a condition on resource-index rows (alias `r`) of workspace `ws`. */
export function indexFilter(
  filters: ResolvedFilters,
  ws: string,
  alias = 'r',
): RawBuilder<boolean> {
  const r = (column: string) => sql.ref(`${alias}.${column}`)
  const parts: RawBuilder<boolean>[] = []
  const task: RawBuilder<boolean>[] = []
  if (filters.status) task.push(sql<boolean>`t.status = any(${sql.val(filters.status)}::text[])`)
  if (filters.assigneeId) task.push(sql<boolean>`t.assignee_id = ${filters.assigneeId}`)
  if (filters.unassigned) task.push(sql<boolean>`t.assignee_id is null`)
  if (filters.undated) task.push(sql<boolean>`t.due is null`)
  if (filters.dueBefore) task.push(sql<boolean>`t.due <= ${filters.dueBefore}::date`)
  if (filters.dueAfter) task.push(sql<boolean>`t.due >= ${filters.dueAfter}::date`)
  if (filters.createdBy) task.push(sql<boolean>`t.creator_id = ${filters.createdBy}`)
  if (filters.completedAfter) {
    task.push(sql<boolean>`t.completed_at >= ${filters.completedAfter}::timestamptz`)
  }
  if (filters.completedBefore) {
    task.push(sql<boolean>`t.completed_at < ${filters.completedBefore}::timestamptz`)
  }
  // Sets of ids, not a test per row: the planner can start from the tasks a filter names (an
  // assignee's, through tasks_assignee_idx) instead of walking the newest rows of the index and
  // testing each (bench/HISTORY.md, "Search that reads questions", has what that cost a
  // member's "my overdue tasks").
  const tasksWhere = (conditions: RawBuilder<boolean>[]) => sql<boolean>`${r('id')} in (
      select t.id from tasks t where t.workspace_id = ${ws}
        and ${sql.join(conditions, sql` and `)})`
  const comments = sql<boolean>`${r('id')} in (select c.id from comments c
      where c.workspace_id = ${ws} and c.author_id = ${filters.createdBy ?? null})`
  // kindsFor keeps tasks only under a task-only filter, and tasks and comments under created_by.
  if (isTaskFilter(filters)) parts.push(tasksWhere(task))
  else if (filters.createdBy) {
    parts.push(sql<boolean>`(${r('type')} = 'task' and ${tasksWhere(task)}
      or ${r('type')} = 'comment' and ${comments})`)
  }
  for (const ids of [filters.objectiveIds, filters.memberProjectIds, filters.ownedIds])
    if (ids) parts.push(sql<boolean>`${r('id')} = any(${sql.val(ids)}::text[])`)
  // People come from the directory, not the index (search.queries.ts): here, its projects and
  // the tasks assigned to its members.
  if (filters.onId) {
    parts.push(sql<boolean>`${r('id')} in (select c.id from comments c
        where c.workspace_id = ${ws} and c.resource_id = ${filters.onId})`)
  }
  if (filters.teamId) {
    parts.push(sql<boolean>`(${r('type')} = 'project' and ${r('id')} in (
        select pm.project_id from project_members pm
        where pm.workspace_id = ${ws} and pm.team_id = ${filters.teamId})
      or ${r('type')} = 'task' and ${r('id')} in (
        select t.id from tasks t
        join team_members m on m.workspace_id = t.workspace_id and m.person_id = t.assignee_id
        where t.workspace_id = ${ws} and m.team_id = ${filters.teamId}))`)
  }
  if (filters.projectId) parts.push(sql<boolean>`${r('project_id')} = ${filters.projectId}`)
  if (filters.updatedAfter) {
    parts.push(sql<boolean>`${r('updated_at')} >= ${filters.updatedAfter}::timestamptz`)
  }
  if (filters.updatedBefore) {
    parts.push(sql<boolean>`${r('updated_at')} < ${filters.updatedBefore}::timestamptz`)
  }
  if (filters.createdAfter) {
    parts.push(sql<boolean>`${r('created_at')} >= ${filters.createdAfter}::timestamptz`)
  }
  if (filters.createdBefore) {
    parts.push(sql<boolean>`${r('created_at')} < ${filters.createdBefore}::timestamptz`)
  }
  return parts.length === 0 ? sql<boolean>`true` : sql<boolean>`(${sql.join(parts, sql` and `)})`
}

// A filter on a field only tasks have.
function isTaskFilter(filters: ResolvedFilters): boolean {
  return !!(
    filters.status ||
    filters.assigneeId ||
    filters.unassigned ||
    filters.undated ||
    filters.dueBefore ||
    filters.dueAfter ||
    filters.completedAfter ||
    filters.completedBefore
  )
}

/** The filters as a condition on activity entries (alias `a`); their time is `created_at`. */
export function activityFilter(filters: ResolvedFilters, alias = 'a'): RawBuilder<boolean> {
  const a = (column: string) => sql.ref(`${alias}.${column}`)
  const parts: RawBuilder<boolean>[] = []
  if (filters.createdBy) parts.push(sql<boolean>`${a('actor_id')} = ${filters.createdBy}`)
  if (filters.projectId) parts.push(sql<boolean>`${a('project_id')} = ${filters.projectId}`)
  if (filters.updatedAfter) {
    parts.push(sql<boolean>`${a('created_at')} >= ${filters.updatedAfter}::timestamptz`)
  }
  if (filters.updatedBefore) {
    parts.push(sql<boolean>`${a('created_at')} < ${filters.updatedBefore}::timestamptz`)
  }
  // An entry is made when it happens: its time is both.
  if (filters.createdAfter) {
    parts.push(sql<boolean>`${a('created_at')} >= ${filters.createdAfter}::timestamptz`)
  }
  if (filters.createdBefore) {
    parts.push(sql<boolean>`${a('created_at')} < ${filters.createdBefore}::timestamptz`)
  }
  return parts.length === 0 ? sql<boolean>`true` : sql<boolean>`(${sql.join(parts, sql` and `)})`
}
