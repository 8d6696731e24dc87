import type { HealthVerdict } from '../graph/okrs/okr-health.ts'
import type { TaskStatus } from './question-vocabulary.ts'

/** Filters as the API names them (the request's `filters` and `interpreted.filters`). */
export interface SearchFilterValues {
  status?: TaskStatus[]
  /** `me`, a person's id or name, or `none`: tasks nobody is assigned. */
  assignee?: string
  project_id?: string
  /** `none`: tasks without a due date. */
  due?: 'none'
  due_before?: string
  due_after?: string
  updated_after?: string
  updated_before?: string
  /** Made at or after this time. */
  created_after?: string
  /** Made before this time. */
  created_before?: string
  /** Tasks completed at or after this time. */
  completed_after?: string
  /** Tasks completed before this time. */
  completed_before?: string
  /** Objectives whose health is one of these. */
  health?: HealthVerdict[]
  /** A team's id or name: its members, its projects, the tasks assigned to its members. */
  team?: string
  created_by?: string
  /** `me` or a person's id: projects they are on, directly or through a team. */
  member?: string
  /** `me` or a person's id: projects, canvases and objectives they own. */
  owner?: string
  /** The id of what comments are on: keeps those comments. */
  on?: string
}
