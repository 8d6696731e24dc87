import { sql } from 'kysely'
import type { LinkEdges } from '../../graph/links/link-edges.ts'

/** The neighbours of a person, as `(rel, rank, id)` rows. */
export const personLinks: LinkEdges = (ws, id) => sql`
    select 'team' as rel, 1 as rank, team_id as id from team_members where workspace_id = ${ws} and person_id = ${id}
    union all select 'project', 2, project_id from project_members where workspace_id = ${ws} and person_id = ${id}`
