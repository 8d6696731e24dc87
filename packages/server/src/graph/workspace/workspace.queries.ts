import type { Selectable } from 'kysely'
import type { Visibility } from '../../access/visibility.ts'
import type { Db } from '../../db/database.ts'
import type { WorkspacesTable } from '../../db/tables/workspace.table.ts'

/** The caller's workspace and how many of its people the caller can see. */
export async function findWorkspace(
  db: Db,
  visibility: Visibility,
): Promise<{ workspace: Selectable<WorkspacesTable>; memberCount: number }> {
  const workspace = await db
    .selectFrom('workspaces')
    .selectAll()
    .where('id', '=', visibility.principal.workspaceId)
    .executeTakeFirstOrThrow()
  const { count } = await db
    .selectFrom('people as p')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(visibility.person())
    .executeTakeFirstOrThrow()
  return { workspace, memberCount: count }
}
