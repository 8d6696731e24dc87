import { sql } from 'kysely'
import type { LinkEdges } from '../../graph/links/link-edges.ts'

/** The neighbours of a task, as `(rel, rank, id)` rows. */
export const taskLinks: LinkEdges = (ws, id) => sql`
    select 'project' as rel, 1 as rank, project_id as id from tasks where workspace_id = ${ws} and id = ${id} and project_id is not null
    union all select 'parent', 2, parent_id from tasks where workspace_id = ${ws} and id = ${id} and parent_id is not null
    union all select 'subtask', 3, id from tasks where workspace_id = ${ws} and parent_id = ${id}
    union all select 'canvas', 4, canvas_id from tasks where workspace_id = ${ws} and id = ${id} and canvas_id is not null
    union all select 'assignee', 5, assignee_id from tasks where workspace_id = ${ws} and id = ${id} and assignee_id is not null
    union all select 'creator', 6, creator_id from tasks where workspace_id = ${ws} and id = ${id}
    union all select 'linked_from', 7, canvas_id from canvas_links where workspace_id = ${ws} and target_id = ${id}`
