import { sql } from 'kysely'
import type { LinkEdges } from '../../graph/links/link-edges.ts'

/** The neighbours of a comment, as `(rel, rank, id)` rows. */
export const commentLinks: LinkEdges = (ws, id) => sql`
    select 'on' as rel, 1 as rank, resource_id as id from comments where workspace_id = ${ws} and id = ${id}
    union all select 'reply_to', 2, parent_id from comments where workspace_id = ${ws} and id = ${id} and parent_id is not null
    union all select 'reply', 3, id from comments where workspace_id = ${ws} and parent_id = ${id}
    union all select 'author', 4, author_id from comments where workspace_id = ${ws} and id = ${id}`
