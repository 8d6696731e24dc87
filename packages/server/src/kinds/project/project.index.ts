import { sql } from 'kysely'
import { type IndexRows, onlyIds } from '../../access/resource-index.ts'

/**
 * A project's row: open to the workspace when its visibility is `workspace`, else to its members.
 */
export const projectIndexRows: IndexRows = {
  titled: true,
  rows: (ws, ids) => sql`select p.workspace_id, p.id, 'project', p.id, p.name, p.description,
           p.visibility = 'workspace', array[p.id], p.created_at, p.updated_at
    from projects p where p.workspace_id = ${ws} ${onlyIds(sql.ref('p.id'), ids)}`,
}
