import { type Selectable, sql } from 'kysely'
import type { Visibility } from '../../access/visibility.ts'
import type { ActivityVerb } from '../../catalogue/verbs.ts'
import type { Db } from '../../db/database.ts'
import type { ActivityTable } from '../../db/tables/activity.table.ts'

/** A change as the feed reads it: an activity entry with its position. */
export type ChangeRow = Pick<
  Selectable<ActivityTable>,
  | 'id'
  | 'verb'
  | 'subject_id'
  | 'subject_type'
  | 'project_id'
  | 'actor_id'
  | 'created_at'
  | 'changes'
> & { position: number }

/** What one scan of the feed selects. */
export interface ChangeFilters {
  /** Resource types the token may read; changes of other types are never returned. */
  resourceTypes: readonly string[]
  events?: readonly ActivityVerb[] | undefined
  project_id?: string | undefined
}

/** One bounded scan: the changes shown, and how far the scan got. */
export interface ChangeScan {
  /** At most `limit + 1` changes the caller may see, in position order. */
  rows: ChangeRow[]
  /** The last position that exists within the window; null when nothing follows `after`. */
  scannedTo: number | null
}

/**
 * Scans the positions after `after`, at most `window` of them, in one statement (so one
 * snapshot): positions are gapless and given to committed entries only, so the highest seen is the
 * head or the window's end, and nothing below it can appear later. A change is shown when its
 * subject is open to the caller now (content by its resource-index row, a person or a team by the
 * directory's rule) and it passes the filters; others are skipped silently.
 */
export async function scanChanges(
  db: Db,
  visibility: Visibility,
  filters: ChangeFilters,
  after: number,
  limit: number,
  window: number,
): Promise<ChangeScan> {
  const ws = visibility.principal.workspaceId
  const events = filters.events?.length
    ? sql`and a.verb = any(${[...filters.events]}::text[])`
    : sql``
  const project = filters.project_id
    ? sql`and (a.project_id = ${filters.project_id} or a.subject_id = ${filters.project_id})`
    : sql``
  const result = await sql<{ scanned_to: string | null } & Partial<ChangeRow>>`
    with scanned as (
      select a.workspace_id, a.position, a.id, a.verb, a.subject_id, a.subject_type, a.project_id,
        a.actor_id, a.created_at, a.changes, a.ref_ids
      from activity a
      where a.workspace_id = ${ws} and a.position > ${after} and a.position <= ${after + window}
    ),
    shown as (
      select a.position, a.id, a.verb, a.subject_id, a.subject_type, a.project_id, a.actor_id,
        a.created_at, a.changes
      from scanned a
      left join resource_index s on s.workspace_id = ${ws} and s.id = a.subject_id
      where a.subject_type = any(${[...filters.resourceTypes]}::text[]) ${events} ${project}
        and (${visibility.row('s')} or ${visibility.directoryActivity('a')})
      order by a.position
      limit ${limit + 1}
    )
    select m.scanned_to, shown.position, shown.id, shown.verb, shown.subject_id,
      shown.subject_type, shown.project_id, shown.actor_id, shown.created_at, shown.changes
    from (select max(position)::text as scanned_to from scanned) m
    left join shown on true
    order by shown.position`.execute(db)
  const first = result.rows[0]
  return {
    scannedTo: first?.scanned_to == null ? null : Number(first.scanned_to),
    rows: result.rows
      .filter((row) => row.id != null)
      .map((row) => ({
        position: Number(row.position),
        id: row.id as string,
        verb: row.verb as ActivityVerb,
        subject_id: row.subject_id as string,
        subject_type: row.subject_type as string,
        project_id: row.project_id ?? null,
        // Who acted: an answer names them only where the caller may see them.
        actor_id: row.actor_id as string,
        created_at: row.created_at as Date,
        // Stored whole: a reader is shown only the people it may see (activity/changed-people.ts).
        changes: row.changes ?? {},
      })),
  }
}

/** The last position committed in the workspace: where "from now on" begins. */
export async function headPosition(db: Db, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('change_positions')
    .select('last')
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst()
  return row ? Number(row.last) : 0
}

/**
 * The retention horizon: the position of the newest change made before `cutoff` (the highest
 * among changes made in the same millisecond), or 0. Changes after it are served; a cursor
 * before it has missed changes that have left the window.
 */
export async function horizonPosition(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const row = await db
    .selectFrom('activity')
    .select('position')
    .where('workspace_id', '=', workspaceId)
    .where('created_at', '<', cutoff)
    .orderBy('created_at', 'desc')
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row ? Number(row.position) : 0
}

/**
 * Every change after `after`, at most `window` positions of them, whoever may see them: what the
 * process's followers of a workspace share (graph/changes/feed-followers.ts), each of which
 * then keeps what its own caller may open. `scannedTo` is as in `scanChanges`.
 */
export async function scanAllChanges(
  db: Db,
  workspaceId: string,
  after: number,
  window: number,
): Promise<ChangeScan> {
  const rows = await db
    .selectFrom('activity')
    .select([
      'position',
      'id',
      'verb',
      'subject_id',
      'subject_type',
      'project_id',
      'actor_id',
      'created_at',
      'changes',
    ])
    .where('workspace_id', '=', workspaceId)
    .where('position', '>', String(after))
    .where('position', '<=', String(after + window))
    .orderBy('position')
    .execute()
  const changes = rows.map((row) => ({ ...row, position: Number(row.position) }) as ChangeRow)
  return { rows: changes, scannedTo: changes.at(-1)?.position ?? null }
}
