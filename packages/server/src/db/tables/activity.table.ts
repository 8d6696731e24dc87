import type { ColumnType } from 'kysely'
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
  verb: string
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
}
