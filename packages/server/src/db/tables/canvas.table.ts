import type { Computed, DefaultTimestamp } from './columns.ts'

/** `canvases`: metadata of planning surfaces (v1 has no canvas body). */
export interface CanvasesTable {
  workspace_id: string
  id: string
  title: string
  summary: string
  project_id: string | null
  visibility: 'project' | 'private'
  owner_id: string
  created_at: DefaultTimestamp
  updated_at: DefaultTimestamp
}

/** `canvas_shares`: who a private canvas is shared with. */
export interface CanvasSharesTable {
  workspace_id: string
  canvas_id: string
  person_id: string | null
  team_id: string | null
  integration_id: string | null
  principal_id: Computed<string>
}

/** `canvas_links`: a canvas's ordered links to other resources. */
export interface CanvasLinksTable {
  workspace_id: string
  canvas_id: string
  target_id: string
  position: number
}
