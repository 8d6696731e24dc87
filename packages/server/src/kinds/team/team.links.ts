import { sql } from 'kysely'
import type { LinkEdges } from '../../graph/links/link-edges.ts'

/** The neighbours of a team, as `(rel, rank, id)` rows. */
export const teamLinks: LinkEdges = (ws, id) => sql`
    select 'member' as rel, 1 as rank, person_id as id from team_members where workspace_id = ${ws} and team_id = ${id}
    union all select 'project', 2, project_id from project_members where workspace_id = ${ws} and team_id = ${id}`
