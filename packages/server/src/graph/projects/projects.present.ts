import type { Static } from 'typebox'
import type { UrlBuilder } from '../../lib/resource-urls.ts'
import type { ProjectRow } from './projects.queries.ts'
import type { ProjectRecord } from './projects.schemas.ts'

/** A project as the API shows it; its links were reduced to visible ones by the query. */
export function presentProject(row: ProjectRow, urls: UrlBuilder): Static<typeof ProjectRecord> {
  return {
    id: row.id,
    type: 'project',
    ...urls.resource(row.workspace_id, 'project', row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    name: row.name,
    description: row.description,
    status: row.status,
    visibility: row.visibility,
    owner_id: row.owner_visible ? row.owner_id : null,
    member_ids: row.member_ids,
    team_ids: row.team_ids,
  }
}
