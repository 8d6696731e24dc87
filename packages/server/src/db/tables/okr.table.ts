import type { ColumnType } from 'kysely'
import type { DefaultTimestamp } from './columns.ts'

/** Whether an objective is still pursued: `closed` once its owner, team or an admin closes it. */
export type ObjectiveStatus = 'open' | 'closed'

/** `objectives`: the O of an OKR. */
export interface ObjectivesTable {
  workspace_id: string
  id: string
  title: string
  session: string
  owner_id: string
  team_id: string | null
  project_id: string | null
  visibility: 'workspace' | 'private'
  progress: number
  /** `open` unless given (the column's default). */
  status: ColumnType<ObjectiveStatus, ObjectiveStatus | undefined, ObjectiveStatus>
  /** When it was closed; null while it is open. */
  closed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  created_at: DefaultTimestamp
  updated_at: DefaultTimestamp
}

/** `key_results`: measurable results of an objective. */
export interface KeyResultsTable {
  workspace_id: string
  id: string
  objective_id: string
  title: string
  start: number
  target: number
  current: number
  unit: string
  position: number
  created_at: DefaultTimestamp
  updated_at: DefaultTimestamp
}

/** `checkins`: a logged value of a key result. */
export interface CheckinsTable {
  workspace_id: string
  id: string
  key_result_id: string
  objective_id: string
  value: number
  confidence: number | null
  note: string
  author_id: string
  created_at: DefaultTimestamp
}
