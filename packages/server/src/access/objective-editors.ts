import { canAdminister } from './administration.ts'
import type { Principal } from './principal.ts'

/*
 * Who may edit an objective and its key results (docs/permissions.md, "Who may change an
 * objective"): someone who can open it (checked first, through the visibility module, so an
 * objective one may not open stays the one 404) and who owns it, is in its owning team, or
 * administers the workspace. Administering opens nothing: it only lets an owner or admin edit
 * what they can open.
 */

/** The fields of an objective that decide who may edit it. */
export interface EditedObjective {
  readonly owner_id: string
  readonly team_id: string | null
}

/** Whether the principal, who can open the objective, may edit it and its key results. */
export function mayEditObjective(principal: Principal, objective: EditedObjective): boolean {
  if (principal.actorKind !== 'person') return false
  if (objective.owner_id === principal.actorId) return true
  if (objective.team_id !== null && principal.teamIds.includes(objective.team_id)) return true
  return canAdminister(principal)
}
