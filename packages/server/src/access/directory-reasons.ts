import { sql } from 'kysely'
import type { Db } from '../db/database.ts'
import type { AccessReason } from './access-reason.ts'
import type { Principal } from './principal.ts'

/*
 * Why a person or a team is visible, by the rules `Visibility.person` and `Visibility.team`
 * apply (docs/permissions.md): members see everyone, so being a member is their one reason.
 * Guests and integrations see themselves, the people of the projects they belong to (the same
 * projects `resolvePrincipal` collects their visible people from) and the teams they are in.
 */

/** Every reason the person `id` is visible to the principal; empty when not. */
export async function personReasons(
  db: Db,
  principal: Principal,
  id: string,
): Promise<AccessReason[]> {
  const ws = principal.workspaceId
  const person = await db
    .selectFrom('people')
    .select('id')
    .where('workspace_id', '=', ws)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!person) return []
  if (principal.isMember) return [{ kind: 'workspace_member' }]
  const reasons: AccessReason[] = id === principal.actorId ? [{ kind: 'self' }] : []
  if (principal.projectIds.length === 0) return reasons
  const theirTeams = sql`select tm.team_id from team_members tm
    where tm.workspace_id = ${ws} and tm.person_id = ${id}`
  const shared = await sql<{ project_id: string }>`
    select distinct pm.project_id from project_members pm
    where pm.workspace_id = ${ws}
      and pm.project_id = any(${sql.val([...principal.projectIds])}::text[])
      and (pm.person_id = ${id} or pm.team_id in (${theirTeams}))`.execute(db)
  for (const row of shared.rows) reasons.push({ kind: 'collaborator', via_id: row.project_id })
  return reasons
}

/** Every reason the team `id` is visible to the principal; empty when not. */
export async function teamReasons(
  db: Db,
  principal: Principal,
  id: string,
): Promise<AccessReason[]> {
  const team = await db
    .selectFrom('teams')
    .select('id')
    .where('workspace_id', '=', principal.workspaceId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!team) return []
  if (principal.isMember) return [{ kind: 'workspace_member' }]
  return principal.teamIds.includes(id) ? [{ kind: 'team_member', via_id: id }] : []
}
