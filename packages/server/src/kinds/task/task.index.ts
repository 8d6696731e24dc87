import { sql } from 'kysely'
import { type IndexRows, onlyIds } from '../../access/resource-index.ts'

/**
 * A task's row: its project's rule (no project: nobody but its creator and assignee), and its
 * creator and assignee.
 */
export const taskIndexRows: IndexRows = {
  titled: true,
  rows: (ws, ids) => sql`select t.workspace_id, t.id, 'task', t.project_id, t.title, t.description,
           coalesce(p.visibility = 'workspace', false),
           array(select distinct x from unnest(array[t.project_id, t.creator_id, t.assignee_id]) x
                 where x is not null order by x),
           t.created_at, t.updated_at
    from tasks t
    left join projects p on p.workspace_id = t.workspace_id and p.id = t.project_id
    where t.workspace_id = ${ws} ${onlyIds(sql.ref('t.id'), ids)}`,
}
