import type { DefaultTimestamp } from './columns.ts'

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
