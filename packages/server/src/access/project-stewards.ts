import { canAdminister } from './administration.ts'
import type { Principal } from './principal.ts'

/*
 * Who may shape a project (docs/permissions.md, "Who may change a project"). Every rule here is
 * asked only about a project the caller may open: one it cannot open is the 404 of an unknown id
 * before any of them is consulted, so administering opens no project either.
 */

/** What a change to a project touches: its details, or who may open it. */
export type ProjectChange = 'details' | 'access'

/** The project's facts the rules read. */
export interface ProjectStewardship {
  readonly ownerId: string
  /** Whether the caller belongs to the project, directly or through a team. */
  readonly callerBelongs: boolean
}

/**
 * Why the caller may not create a project, or null when it may: any non-guest person may, and
 * owns what it creates. A guest works inside what it is given; an integration owns nothing; a
 * credential fenced to projects could never open a project it made outside its fence.
 */
export function projectCreationRefusal(principal: Principal): string | null {
  if (principal.actorKind !== 'person')
    return 'Projects are owned by people; a workspace token cannot create one.'
  if (!principal.isMember) return 'Guests cannot create projects.'
  if (principal.fence !== null)
    return 'A credential fenced to projects cannot create projects: it could not open the new one.'
  return null
}

/**
 * Whether the caller may make a change of this kind to a project it may open. Its details (name,
 * description, status) are run by the people who belong to it, guests aside, as well as by its
 * owner and the workspace's owners and admins; who may open it (visibility, owner, members) is
 * decided only by its owner and the workspace's owners and admins.
 */
export function mayChangeProject(
  principal: Principal,
  project: ProjectStewardship,
  change: ProjectChange,
): boolean {
  if (principal.actorKind !== 'person') return false
  if (principal.actorId === project.ownerId || canAdminister(principal)) return true
  return change === 'details' && principal.isMember && project.callerBelongs
}
