import { sql } from 'kysely'
import type { LinkEdges } from '../../graph/links/link-edges.ts'

/** The neighbours of a project, as `(rel, rank, id)` rows. */
export const projectLinks: LinkEdges = (ws, id) => sql`
    select 'owner' as rel, 1 as rank, owner_id as id from projects where workspace_id = ${ws} and id = ${id}
    union all select 'member', 2, person_id from project_members where workspace_id = ${ws} and project_id = ${id} and person_id is not null
    union all select 'team', 3, team_id from project_members where workspace_id = ${ws} and project_id = ${id} and team_id is not null
    union all select 'canvas', 4, id from canvases where workspace_id = ${ws} and project_id = ${id}
    union all select 'task', 5, id from tasks where workspace_id = ${ws} and project_id = ${id} and parent_id is null
    union all select 'okr', 6, id from objectives where workspace_id = ${ws} and project_id = ${id}`
