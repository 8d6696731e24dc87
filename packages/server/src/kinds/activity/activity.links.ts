import { sql } from 'kysely'
import type { LinkEdges } from '../../graph/links/link-edges.ts'

/** The neighbours of an activity entry, as `(rel, rank, id)` rows. */
export const activityLinks: LinkEdges = (ws, id) => sql`
    select 'subject' as rel, 1 as rank, subject_id as id from activity where workspace_id = ${ws} and id = ${id}
    union all select 'actor', 2, actor_id from activity where workspace_id = ${ws} and id = ${id}`
