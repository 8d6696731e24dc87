import { sql } from 'kysely'
import { type IndexRows, onlyIds } from '../../access/resource-index.ts'

/**
 * An objective's row: open to the workspace when its visibility is `workspace`; its owner, and when
 * private its owning team.
 */
export const okrIndexRows: IndexRows = {
  titled: true,
  rows: (ws, ids) => sql`select o.workspace_id, o.id, 'okr', o.project_id, o.title,
           coalesce((select string_agg(k.title, E'\n' order by k.position) from key_results k
                     where k.workspace_id = o.workspace_id and k.objective_id = o.id), ''),
           o.visibility = 'workspace',
           case when o.visibility = 'private' then array_remove(array[o.owner_id, o.team_id], null)
                else array[o.owner_id] end,
           o.created_at, o.updated_at
    from objectives o where o.workspace_id = ${ws} ${onlyIds(sql.ref('o.id'), ids)}`,
}
