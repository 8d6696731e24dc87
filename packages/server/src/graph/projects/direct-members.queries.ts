import type { Visibility } from '../../access/visibility.ts'
import type { Db } from '../../db/database.ts'

/** One direct member of a project: a person, a team or an integration, by name. */
export interface DirectMember {
  readonly id: string
  readonly type: 'person' | 'team' | 'integration'
  readonly name: string
}

const TYPE_ORDER = { person: 0, team: 1, integration: 2 } as const

/**
 * The direct members of a project that the principal may see (people, teams, integrations),
 * people first, each kind by name. Those who belong only through a team are not listed: they
 * are the team's members, and the team is removed or changed, not them.
 */
export async function listDirectMembers(
  db: Db,
  visibility: Visibility,
  projectId: string,
): Promise<DirectMember[]> {
  const ws = visibility.principal.workspaceId
  const members = db
    .selectFrom('project_members as pm')
    .where('pm.workspace_id', '=', ws)
    .where('pm.project_id', '=', projectId)
  const [people, teams, integrations] = await Promise.all([
    members
      .innerJoin('people as p', (join) =>
        join.onRef('p.workspace_id', '=', 'pm.workspace_id').onRef('p.id', '=', 'pm.person_id'),
      )
      .select(['p.id', 'p.name'])
      .where(visibility.person('p'))
      .execute(),
    members
      .innerJoin('teams as t', (join) =>
        join.onRef('t.workspace_id', '=', 'pm.workspace_id').onRef('t.id', '=', 'pm.team_id'),
      )
      .select(['t.id', 't.name'])
      .where(visibility.team('t'))
      .execute(),
    members
      .innerJoin('integrations as i', (join) =>
        join
          .onRef('i.workspace_id', '=', 'pm.workspace_id')
          .onRef('i.id', '=', 'pm.integration_id'),
      )
      .select(['i.id', 'i.name'])
      .where(visibility.integration('i'))
      .execute(),
  ])
  const all: DirectMember[] = [
    ...people.map((row) => ({ ...row, type: 'person' as const })),
    ...teams.map((row) => ({ ...row, type: 'team' as const })),
    ...integrations.map((row) => ({ ...row, type: 'integration' as const })),
  ]
  return all.sort(
    (a, b) =>
      TYPE_ORDER[a.type] - TYPE_ORDER[b.type] ||
      a.name.localeCompare(b.name) ||
      a.id.localeCompare(b.id),
  )
}

/** The workspace's integrations the principal may see, by name: who a project may be shared with. */
export async function listIntegrations(
  db: Db,
  visibility: Visibility,
): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('integrations as i')
    .select(['i.id', 'i.name'])
    .where(visibility.integration('i'))
    .orderBy('i.name')
    .orderBy('i.id')
    .execute()
}
