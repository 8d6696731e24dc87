import type { Static } from 'typebox'
import type { UrlBuilder } from '../../lib/resource-urls.ts'
import type { CanvasRow } from './canvases.queries.ts'
import type { CanvasRecord } from './canvases.schemas.ts'

/** A canvas as the API shows it; hidden links are null or left out. */
export function presentCanvas(row: CanvasRow, urls: UrlBuilder): Static<typeof CanvasRecord> {
  return {
    id: row.id,
    type: 'canvas',
    ...urls.resource(row.workspace_id, 'canvas', row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    title: row.title,
    summary: row.summary,
    project_id: row.project_visible ? row.project_id : null,
    visibility: row.visibility,
    owner_id: row.owner_visible ? row.owner_id : null,
    links: row.links,
  }
}
