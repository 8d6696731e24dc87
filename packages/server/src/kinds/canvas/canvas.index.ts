import { sql } from 'kysely'
import { type IndexRows, onlyIds } from '../../access/resource-index.ts'

/**
 * A canvas's row: a private canvas is open to its owner and the people, teams and integrations it
 * is shared with; any other follows its project (no project: the whole workspace).
 */
export const canvasIndexRows: IndexRows = {
  titled: true,
  rows: (ws, ids) => sql`select c.workspace_id, c.id, 'canvas', c.project_id, c.title, c.summary,
           case when c.visibility = 'private' then false
                when c.project_id is null then true
                else p.visibility = 'workspace' end,
           case when c.visibility = 'private' then array[c.owner_id] || array(
                  select s.principal_id from canvas_shares s
                  where s.workspace_id = c.workspace_id and s.canvas_id = c.id order by 1)
                when c.project_id is null then '{}'::text[]
                else array[c.project_id] end,
           c.created_at, c.updated_at
    from canvases c
    left join projects p on p.workspace_id = c.workspace_id and p.id = c.project_id
    where c.workspace_id = ${ws} ${onlyIds(sql.ref('c.id'), ids)}`,
}
