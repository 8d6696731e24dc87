import { sql } from 'kysely'
import type { IndexRows } from '../../access/resource-index.ts'

/**
 * A comment's row is exactly the row of what it is on: it reads those rows, so it is compiled
 * after them, and recompiling a resource recompiles the comments on it.
 */
export const commentIndexRows: IndexRows = {
  titled: false,
  readsIndex: true,
  rows: (
    ws,
    ids,
  ) => sql`select c.workspace_id, c.id, 'comment', t.project_id, '', c.body, t.ws_visible, t.acl,
           c.created_at, c.updated_at
    from comments c
    join resource_index t on t.workspace_id = c.workspace_id and t.id = c.resource_id
    where c.workspace_id = ${ws}
      ${ids === null ? sql`` : sql`and (c.id = any(${sql.val([...ids])}::text[]) or c.resource_id = any(${sql.val([...ids])}::text[]))`}`,
}
