import { sql } from 'kysely'
import type { LinkEdges } from '../../graph/links/link-edges.ts'

/** The neighbours of a check-in, as `(rel, rank, id)` rows. */
export const checkinLinks: LinkEdges = (ws, id) => sql`
    select 'okr' as rel, 1 as rank, objective_id as id from checkins where workspace_id = ${ws} and id = ${id}
    union all select 'author', 2, author_id from checkins where workspace_id = ${ws} and id = ${id}`
