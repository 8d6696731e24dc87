import type { Caller } from '../../access/caller.ts'
import { openableIds } from '../../access/visibility.ts'
import type { Db } from '../../db/database.ts'

/** The caller's own name, as stored (null if removed): a token may always know whom it acts as. */
export async function actorName(db: Db, caller: Caller): Promise<string | null> {
  const { workspaceId, actorId, actorKind } = caller.principal
  const row = await db
    .selectFrom(actorKind === 'person' ? 'people' : 'integrations')
    .select('name')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', actorId)
    .executeTakeFirst()
  return row?.name ?? null
}

/**
 * The projects the credential is fenced to that the caller can still open, sorted; null when it
 * is not fenced. A project left since the fence was set is not named back.
 */
export async function fencedProjectsStillOpen(db: Db, caller: Caller): Promise<string[] | null> {
  const fence = caller.credential.fence
  if (fence === null) return null
  return [...(await openableIds(db, caller.visibility, fence))].sort()
}
