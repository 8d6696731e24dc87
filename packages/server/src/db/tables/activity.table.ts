import type { ColumnType } from 'kysely'
import type { ActivityVerb } from '../../catalogue/verbs.ts'
import type { DefaultTimestamp } from './columns.ts'

/** A field's value before and after a change. */
export interface FieldChange {
  from: unknown
  to: unknown
}

/** `activity`: the append-only stream of meaningful changes. */
export interface ActivityTable {
  workspace_id: string
  id: string
  verb: ActivityVerb
  actor_id: string
  subject_id: string
  subject_type: string
  object_id: string | null
  project_id: string | null
  ref_ids: ColumnType<string[], string[] | undefined, never>
  changes: ColumnType<Record<string, FieldChange>, string | undefined, never>
  /** The entry's own searchable text: its verb and the values it changed. */
  search_text: ColumnType<string, string | undefined, never>
  tsv: ColumnType<string, never, never>
  created_at: DefaultTimestamp
  /**
   * The entry's place in the change feed: unique and gapless per workspace, given once committed
   * (docs/changes.md). Read as a string (bigint); null until `numberCommittedChanges` (or the
   * import) numbers the committed entry.
   */
  position: ColumnType<string | null, number | undefined, number>
  /** The order entries were written in (an identity column), which numbering keeps. */
  written: ColumnType<string, never, never>
}

/** `change_positions`: the last change-feed position given out in each workspace. */
export interface ChangePositionsTable {
  workspace_id: string
  last: ColumnType<string, number, number>
}
