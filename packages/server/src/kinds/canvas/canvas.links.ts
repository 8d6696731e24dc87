import { sql } from 'kysely'
import type { LinkEdges } from '../../graph/links/link-edges.ts'

/** The neighbours of a canvas, as `(rel, rank, id)` rows. */
export const canvasLinks: LinkEdges = (ws, id) => sql`
    select 'project' as rel, 1 as rank, project_id as id from canvases where workspace_id = ${ws} and id = ${id} and project_id is not null
    union all select 'owner', 2, owner_id from canvases where workspace_id = ${ws} and id = ${id}
    union all select 'link', 3, target_id from canvas_links where workspace_id = ${ws} and canvas_id = ${id}
    union all select 'task', 4, id from tasks where workspace_id = ${ws} and canvas_id = ${id}
    union all select 'linked_from', 5, canvas_id from canvas_links where workspace_id = ${ws} and target_id = ${id}`
