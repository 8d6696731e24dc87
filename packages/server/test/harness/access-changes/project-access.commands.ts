import { bumpAclEpoch, syncProjectTree } from '../../../src/access/resource-index.ts'
import type { Db } from '../../../src/db/database.ts'
import { memberColumns } from './member-ref.ts'

/*
 * Changes to who may open a project, for tests that need them inside one transaction with other
 * changes, by no one in particular: they write the tables directly, keeping the resource index
 * and the ACL epoch right as the API's commands do (access-writes.property.test.ts tests those).
 * Call them inside a transaction.
 */

/** Makes a project visible to the whole workspace or to its members only. */
export async function setProjectVisibility(
  db: Db,
  workspaceId: string,
  projectId: string,
  visibility: 'workspace' | 'private',
  at: Date,
): Promise<void> {
  await db
    .updateTable('projects')
    .set({ visibility, updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', projectId)
    .execute()
  await syncProjectTree(db, workspaceId, projectId)
}

/**
 * Adds a person, team or integration to a project. Content rows do not change: members reach
 * content through the project's own id in its ACL, so only principal sets (the epoch) move.
 */
export async function addProjectMember(
  db: Db,
  workspaceId: string,
  projectId: string,
  principalId: string,
): Promise<void> {
  const columns = memberColumns(principalId)
  if (!columns) throw new Error(`not a principal id: ${principalId}`)
  await db
    .insertInto('project_members')
    .values({ workspace_id: workspaceId, project_id: projectId, ...columns })
    .onConflict((oc) => oc.doNothing())
    .execute()
  await bumpAclEpoch(db, workspaceId)
}

/** Removes a member from a project; takes effect on every instance at the next request. */
export async function removeProjectMember(
  db: Db,
  workspaceId: string,
  projectId: string,
  principalId: string,
): Promise<void> {
  await db
    .deleteFrom('project_members')
    .where('workspace_id', '=', workspaceId)
    .where('project_id', '=', projectId)
    .where('principal_id', '=', principalId)
    .execute()
  await bumpAclEpoch(db, workspaceId)
}
