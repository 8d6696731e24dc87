import { type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely'
import type { Visibility } from '../access/visibility.ts'
import type { Reference } from '../api/require-visible.ts'
import { kindNamed } from '../catalogue/catalogue.ts'
import type { ActivityVerb } from '../catalogue/verbs.ts'
import type { Db } from '../db/database.ts'
import { newestFirstAfter } from '../db/keyset.ts'
import type { ActivityTable } from '../db/tables/activity.table.ts'
import type { CursorPosition } from '../lib/cursor.ts'
import { idKind } from '../lib/ids.ts'
import { showChangedPeople } from './changed-people.ts'

/** An activity row with its subject's current title (null when the token may not read its type). */
export type ActivityRow = Omit<
  Selectable<ActivityTable>,
  'tsv' | 'search_text' | 'position' | 'written'
> & {
  subject_title: string | null
  /** The subject's version, which summaries cite. */
  subject_updated_at: Date
  actor_visible: boolean
  /** What a comment is on (visible, as everything an entry mentions is); null for the rest. */
  on_id: string | null
  /** A check-in's value, confidence and key result; null for other entries. */
  checkin: CheckinFacts | null
}

/** What a check-in logged, as its activity entry tells it. */
export interface CheckinFacts {
  value: number
  confidence: number | null
  /** The key result's title and unit: they follow their objective, the entry's subject. */
  key_result: string
  unit: string
}

/** Filters of an activity list. */
export interface ActivityFilters {
  ids?: readonly string[]
  project_id?: string | undefined
  /** Entries about this resource: as their subject, or mentioned. */
  resource_id?: string | undefined
  actor_id?: string | undefined
  since?: string | undefined
  verbs?: readonly ActivityVerb[] | undefined
  /** Leaves out what this actor did (what needs someone's attention is what others did). */
  not_actor_id?: string | undefined
  /**
   * Entries about a task assigned to, or an objective owned by, a person or a team's members
   * (the caller may see), as their subject or mentioned (a comment on the task).
   */
  concerning?: { person_id: string } | { team_id: string } | undefined
}

/**
 * The ids among activity filters, each to be checked visible like every other filter: a hidden
 * project, resource or actor is answered like an unknown one.
 */
export function activityReferences(filters: ActivityFilters): Reference[] {
  const references: Reference[] = [['/project_id', 'project', filters.project_id]]
  if (filters.resource_id)
    references.push(['/resource_id', idKind(filters.resource_id) ?? 'task', filters.resource_id])
  if (filters.actor_id) {
    const kind = idKind(filters.actor_id) === 'integration' ? 'integration' : 'person'
    references.push(['/actor_id', kind, filters.actor_id])
  }
  return references
}

/**
 * Activity the principal may see, newest first; `limit + 1` rows. Titles are the subjects'
 * current ones, named only for `titleTypes`, the resource types the token may read. Entries
 * about content and entries about people and teams are read apart, each newest first up to the
 * limit, then merged: each branch keeps a plan of its own (a guest's starts from the few
 * resources it opens), where one join of both kinds of subject cost every reader the slower plan.
 */
export async function listActivity(
  db: Db,
  visibility: Visibility,
  titleTypes: readonly string[],
  filters: ActivityFilters,
  after: CursorPosition | null,
  limit: number,
): Promise<ActivityRow[]> {
  const read: BranchRead = { db, visibility, titleTypes, filters, after, limit }
  const content = entries(read, 'content')
  const rows = readsDirectory(visibility, filters)
    ? await db
        .selectFrom(
          db
            .selectFrom(content.as('c'))
            .selectAll()
            .unionAll(db.selectFrom(entries(read, 'directory').as('d')).selectAll())
            .as('u'),
        )
        .selectAll()
        .orderBy('u.created_at', 'desc')
        .orderBy('u.id', 'desc')
        .limit(limit + 1)
        .execute()
    : await content.execute()
  // Every reader of activity reads through here, so none is shown a person it may not see.
  return showChangedPeople(db, { visibility, readableKinds: titleTypes }, rows)
}

// Whether entries about people and teams can pass the filters: they belong to no project and
// concern no task or objective, and a credential fenced to projects sees none of them.
function readsDirectory(visibility: Visibility, filters: ActivityFilters): boolean {
  if (visibility.principal.fence !== null) return false
  if (filters.project_id || filters.concerning) return false
  return !filters.verbs?.length || filters.verbs.some((verb) => isDirectoryVerb(verb))
}

// A verb about a kind the resource index does not hold: a person or a team.
function isDirectoryVerb(verb: string): boolean {
  return kindNamed(verb.split('.')[0] ?? '')?.indexed === false
}

// The subjects of directory entries, in the shape of the resource index's rows they stand in for.
function directorySubjects(workspaceId: string): RawBuilder<SubjectRow> {
  return sql<SubjectRow>`(
    select workspace_id, id, 'person' as type, name as title, '' as body, updated_at
    from people where workspace_id = ${workspaceId}
    union all
    select workspace_id, id, 'team', name, '', updated_at
    from teams where workspace_id = ${workspaceId})`
}

// What an entry shows of its subject.
interface SubjectRow {
  workspace_id: string
  id: string
  type: string
  title: string
  body: string
  updated_at: Date
}

// What both branches of `listActivity` read with.
interface BranchRead {
  db: Db
  visibility: Visibility
  titleTypes: readonly string[]
  filters: ActivityFilters
  after: CursorPosition | null
  limit: number
}

// One branch of `listActivity`: the entries about content (subjects in the resource index), or
// about people and teams (the directory's rule), filtered, newest first, `limit + 1` of them.
function entries(read: BranchRead, subjects: 'content' | 'directory') {
  const { db, visibility, titleTypes, filters, after, limit } = read
  const ws = visibility.principal.workspaceId
  const from =
    subjects === 'content'
      ? db
          .selectFrom('activity as a')
          .innerJoin('resource_index as s', (join) =>
            join.onRef('s.workspace_id', '=', 'a.workspace_id').onRef('s.id', '=', 'a.subject_id'),
          )
          .where(visibility.activity('a', 's'))
      : db
          .selectFrom('activity as a')
          .innerJoin(directorySubjects(ws).as('s'), (join) =>
            join.onRef('s.workspace_id', '=', 'a.workspace_id').onRef('s.id', '=', 'a.subject_id'),
          )
          // Spelled as the partial index on directory entries is (migration 0023).
          .where(sql<SqlBool>`a.subject_type in ('person', 'team')`)
          .where(visibility.directoryActivity('a'))
  let query = from
    .select([
      'a.workspace_id',
      'a.id',
      'a.verb',
      'a.actor_id',
      'a.subject_id',
      'a.subject_type',
      'a.object_id',
      'a.project_id',
      'a.ref_ids',
      'a.changes',
      'a.created_at',
      sql<string | null>`case when s.type <> all(${sql.val([...titleTypes])}::text[]) then null
        when s.type = 'comment' then left(s.body, 120) else s.title end`.as('subject_title'),
      's.updated_at as subject_updated_at',
      sql<boolean>`${visibility.actorId('a.actor_id')}`.as('actor_visible'),
      // A comment's target is among the entry's refs, so the entry's own test covers it.
      sql<string | null>`case when a.subject_type = 'comment' then (
        select c.resource_id from comments c
        where c.workspace_id = a.workspace_id and c.id = a.subject_id) end`.as('on_id'),
      sql<CheckinFacts | null>`case when a.verb = 'okr.checkin' then (
        select json_build_object('value', ch.value, 'confidence', ch.confidence,
                                 'key_result', k.title, 'unit', k.unit)
        from checkins ch
        join key_results k on k.workspace_id = ch.workspace_id and k.id = ch.key_result_id
        where ch.workspace_id = a.workspace_id and ch.id = a.object_id) end`.as('checkin'),
    ])
    .where('a.workspace_id', '=', ws)
    .where(newestFirstAfter('a', after))
  if (filters.ids) query = query.where('a.id', 'in', [...filters.ids])
  if (filters.project_id) query = query.where('a.project_id', '=', filters.project_id)
  if (filters.resource_id) {
    const id = filters.resource_id
    // `@>` rather than `= any(…)`: only containment can use the GIN index on ref_ids, and with
    // both arms indexed the planner ORs two bitmaps instead of walking the whole feed.
    query = query.where((eb) =>
      eb.or([
        eb('a.subject_id', '=', id),
        eb('a.ref_ids', '@>', sql<string[]>`array[${id}]::text[]`),
      ]),
    )
  }
  if (filters.actor_id) query = query.where('a.actor_id', '=', filters.actor_id)
  if (filters.not_actor_id) query = query.where('a.actor_id', '<>', filters.not_actor_id)
  if (filters.concerning) query = query.where(concerning(visibility, filters.concerning))
  if (filters.since) query = query.where('a.created_at', '>=', new Date(filters.since))
  if (filters.verbs?.length) query = query.where('a.verb', 'in', [...filters.verbs])
  return query
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit + 1)
}

// Entries whose subject, or a resource they mention, is a task assigned to or an objective owned
// by the people named: a person, or the members of a team that the caller may see.
function concerning(
  visibility: Visibility,
  whom: NonNullable<ActivityFilters['concerning']>,
): RawBuilder<SqlBool> {
  const people =
    'person_id' in whom
      ? sql`(${whom.person_id})`
      : sql`(select tm.person_id from team_members tm
          where tm.workspace_id = a.workspace_id and tm.team_id = ${whom.team_id}
            and ${visibility.personId('tm.person_id')})`
  return sql<SqlBool>`(exists (
      select 1 from tasks t where t.workspace_id = a.workspace_id and t.assignee_id in ${people}
        and (t.id = a.subject_id or t.id = any(a.ref_ids)))
    or exists (
      select 1 from objectives o where o.workspace_id = a.workspace_id and o.owner_id in ${people}
        and (o.id = a.subject_id or o.id = any(a.ref_ids))))`
}

/** Activity entries the principal may see, by id. */
export async function findActivity(
  db: Db,
  visibility: Visibility,
  titleTypes: readonly string[],
  ids: readonly string[],
): Promise<ActivityRow[]> {
  return ids.length === 0 ? [] : listActivity(db, visibility, titleTypes, { ids }, null, ids.length)
}
