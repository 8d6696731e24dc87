import { canAdminister } from './administration.ts'
import type { Principal } from './principal.ts'

/**
 * Why the caller may not change the workspace's teams, or null when it may (docs/permissions.md,
 * "Who may change teams"): owners and admins, through a credential not fenced to projects. A
 * team decides what its members may open, so a credential meant to reach a few projects must not
 * be able to widen what its own person, or anyone, reaches through a team.
 */
export function teamChangeRefusal(principal: Principal): string | null {
  if (principal.actorKind !== 'person' || !canAdminister(principal))
    return "Only the workspace's owners and admins may change teams."
  if (principal.fence !== null) return 'A credential fenced to projects cannot change teams.'
  return null
}
