import { resolvePrincipal } from '../access/principal.ts'
import { canOpen, visibilityFor } from '../access/visibility.ts'
import type { Db } from '../db/database.ts'

/**
 * Whether another person of the workspace may open a resource: the rule an assignee must meet.
 * Resolved through the same principal and visibility code as every request.
 */
export async function personCanOpen(
  db: Db,
  workspaceId: string,
  personId: string,
  resourceId: string,
): Promise<boolean> {
  const person = await db
    .selectFrom('people')
    .select('role')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', personId)
    .executeTakeFirst()
  if (!person) return false
  const principal = await resolvePrincipal(db, {
    workspaceId,
    actorId: personId,
    actorKind: 'person',
    role: person.role,
  })
  return canOpen(db, visibilityFor(principal), resourceId)
}
