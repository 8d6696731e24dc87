import { bumpAclEpoch } from '../../../src/access/resource-index.ts'
import type { Db } from '../../../src/db/database.ts'

/** Adds a person to a team (no v1 endpoint; see project-access.commands.ts). */
export async function addTeamMember(
  db: Db,
  workspaceId: string,
  teamId: string,
  personId: string,
): Promise<void> {
  await db
    .insertInto('team_members')
    .values({ workspace_id: workspaceId, team_id: teamId, person_id: personId })
    .onConflict((oc) => oc.doNothing())
    .execute()
  await bumpAclEpoch(db, workspaceId)
}

/** Removes a person from a team; what the team opened is closed to them at the next request. */
export async function removeTeamMember(
  db: Db,
  workspaceId: string,
  teamId: string,
  personId: string,
): Promise<void> {
  await db
    .deleteFrom('team_members')
    .where('workspace_id', '=', workspaceId)
    .where('team_id', '=', teamId)
    .where('person_id', '=', personId)
    .execute()
  await bumpAclEpoch(db, workspaceId)
}
