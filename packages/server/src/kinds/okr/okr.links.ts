import { sql } from 'kysely'
import type { LinkEdges } from '../../graph/links/link-edges.ts'

/** The neighbours of an objective, as `(rel, rank, id)` rows. */
export const okrLinks: LinkEdges = (ws, id) => sql`
    select 'owner' as rel, 1 as rank, owner_id as id from objectives where workspace_id = ${ws} and id = ${id}
    union all select 'team', 2, team_id from objectives where workspace_id = ${ws} and id = ${id} and team_id is not null
    union all select 'project', 3, project_id from objectives where workspace_id = ${ws} and id = ${id} and project_id is not null
    union all select 'linked_from', 4, canvas_id from canvas_links where workspace_id = ${ws} and target_id = ${id}`
