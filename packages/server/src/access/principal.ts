import { sql } from 'kysely'
import type { Db } from '../db/database.ts'
import { type Fence, narrowFence } from './fence.ts'

/** A workspace role. */
export type Role = 'owner' | 'admin' | 'member' | 'guest'

/**
 * Who is calling, resolved once per request: the actor and every principal id that can open
 * something on the actor's behalf (its own id, its teams, the projects it belongs to).
 */
export interface Principal {
  readonly workspaceId: string
  /** A person (`usr_…`) or an integration (`itg_…`). */
  readonly actorId: string
  readonly actorKind: 'person' | 'integration'
  /** The person's role; null for integrations. */
  readonly role: Role | null
  /** A non-guest person: opens everything visible to the whole workspace. */
  readonly isMember: boolean
  readonly teamIds: readonly string[]
  /** Projects the actor belongs to, directly or through a team. */
  readonly projectIds: readonly string[]
  /** ACL tokens: actor id, team ids and project ids; any one in a resource's ACL opens it. */
  readonly tokens: readonly string[]
  /**
   * The people a guest or integration may see: itself and the members (direct or through a team)
   * of the projects it belongs to. Null for members, who see everyone.
   */
  readonly visiblePeopleIds: readonly string[] | null
  /**
   * The projects the presented credential is fenced to (docs/permissions.md, "Fenced
   * credentials"): resources outside them are as if they did not exist. Null when unfenced.
   */
  readonly fence: Fence
}

/** The actor of a principal, as stored on tokens and people. */
export interface Actor {
  workspaceId: string
  actorId: string
  actorKind: 'person' | 'integration'
  role: Role | null
}

/**
 * The principal as seen through a credential's fence: what both allow. The principal cache holds
 * the actor's unfenced principal (keyed on the actor); each request fences its own copy, so two
 * credentials of one person never share a fenced principal.
 */
export function fencedPrincipal(principal: Principal, fence: Fence): Principal {
  if (fence === null) return principal
  return { ...principal, fence: narrowFence(principal.fence, fence) }
}

/**
 * Computes the principal set of an actor in one statement. Integrations belong to no team and are
 * never workspace members: they see only what is shared with them.
 */
export async function resolvePrincipal(db: Db, actor: Actor): Promise<Principal> {
  const isMember = actor.actorKind === 'person' && actor.role !== 'guest'
  const ws = actor.workspaceId
  const row = await sql<{ team_ids: string[]; project_ids: string[]; people_ids: string[] | null }>`
    with my_teams as (
      select team_id from team_members where workspace_id = ${ws} and person_id = ${actor.actorId}
    ),
    my_projects as (
      select distinct project_id from project_members
      where workspace_id = ${ws} and (principal_id = ${actor.actorId} or principal_id in (select team_id from my_teams))
    )
    select
      array(select team_id from my_teams order by team_id) as team_ids,
      array(select project_id from my_projects order by project_id) as project_ids,
      case when ${isMember} then null else array(
        select ${actor.actorId}::text
        union
        select pm.person_id from project_members pm
        where pm.workspace_id = ${ws} and pm.project_id in (select project_id from my_projects) and pm.person_id is not null
        union
        select tm.person_id from project_members pm
        join team_members tm on tm.workspace_id = pm.workspace_id and tm.team_id = pm.team_id
        where pm.workspace_id = ${ws} and pm.project_id in (select project_id from my_projects)
        order by 1) end as people_ids`
    .execute(db)
    .then((result) => result.rows[0])
  const teamIds = row?.team_ids ?? []
  const projectIds = row?.project_ids ?? []
  return {
    ...actor,
    isMember,
    teamIds,
    projectIds,
    tokens: [actor.actorId, ...teamIds, ...projectIds],
    visiblePeopleIds: isMember ? null : (row?.people_ids ?? [actor.actorId]),
    fence: null,
  }
}
