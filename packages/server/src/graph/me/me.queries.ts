import type { Caller } from '../../access/caller.ts'
import { openableIds } from '../../access/visibility.ts'
import type { Db } from '../../db/database.ts'

/** The caller's own name and role, as stored: a token may always know whom it acts as. */
export async function findActor(
  db: Db,
  caller: Caller,
): Promise<{ name: string; role: string | null } | null> {
  const { workspaceId, actorId, actorKind } = caller.principal
  if (actorKind === 'person') {
    const person = await db
      .selectFrom('people')
      .select(['name', 'role'])
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', actorId)
      .executeTakeFirst()
    return person ?? null
  }
  const integration = await db
    .selectFrom('integrations')
    .select('name')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', actorId)
    .executeTakeFirst()
  return integration ? { name: integration.name, role: null } : null
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
