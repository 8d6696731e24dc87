import type { Computed, DefaultTimestamp } from './columns.ts'

/** `projects`. */
export interface ProjectsTable {
  workspace_id: string
  id: string
  name: string
  description: string
  status: 'planned' | 'active' | 'paused' | 'completed' | 'archived'
  visibility: 'workspace' | 'private'
  owner_id: string
  created_at: DefaultTimestamp
  updated_at: DefaultTimestamp
}

/** `project_members`: a person, a team or an integration that belongs to a project. */
export interface ProjectMembersTable {
  workspace_id: string
  project_id: string
  person_id: string | null
  team_id: string | null
  integration_id: string | null
  principal_id: Computed<string>
}
