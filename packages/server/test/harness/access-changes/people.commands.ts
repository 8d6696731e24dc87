import type { Role } from '../../../src/access/principal.ts'
import { bumpAclEpoch } from '../../../src/access/resource-index.ts'
import type { Db } from '../../../src/db/database.ts'

/** Changes a person's role, such as a guest becoming a member (no v1 endpoint). */
export async function setRole(
  db: Db,
  workspaceId: string,
  personId: string,
  role: Role,
  at: Date,
): Promise<void> {
  await db
    .updateTable('people')
    .set({ role, updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', personId)
    .execute()
  await bumpAclEpoch(db, workspaceId)
}
