import { syncResourceIndex } from '../../../src/access/resource-index.ts'
import type { Db } from '../../../src/db/database.ts'
import { memberColumns } from './member-ref.ts'

/** Makes a canvas follow its project, or private to its owner and shares (recompiles its ACL). */
export async function setCanvasVisibility(
  db: Db,
  workspaceId: string,
  canvasId: string,
  visibility: 'project' | 'private',
  at: Date,
): Promise<void> {
  await db
    .updateTable('canvases')
    .set({ visibility, updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', canvasId)
    .execute()
  await syncResourceIndex(db, workspaceId, { ids: [canvasId] })
}

/** Shares a canvas with a person, team or integration. */
export async function shareCanvas(
  db: Db,
  workspaceId: string,
  canvasId: string,
  principalId: string,
): Promise<void> {
  const columns = memberColumns(principalId)
  if (!columns) throw new Error(`not a principal id: ${principalId}`)
  await db
    .insertInto('canvas_shares')
    .values({ workspace_id: workspaceId, canvas_id: canvasId, ...columns })
    .onConflict((oc) => oc.doNothing())
    .execute()
  await syncResourceIndex(db, workspaceId, { ids: [canvasId] })
}

/** Stops sharing a canvas with someone; the canvas and its comments close to them at once. */
export async function unshareCanvas(
  db: Db,
  workspaceId: string,
  canvasId: string,
  principalId: string,
): Promise<void> {
  await db
    .deleteFrom('canvas_shares')
    .where('workspace_id', '=', workspaceId)
    .where('canvas_id', '=', canvasId)
    .where('principal_id', '=', principalId)
    .execute()
  await syncResourceIndex(db, workspaceId, { ids: [canvasId] })
}
