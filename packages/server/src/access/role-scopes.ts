import { SCOPES, type Scope } from '../catalogue/scopes.ts'
import type { Role } from './principal.ts'

// Scopes no role but these may use: the audit log is for those who administer the workspace.
const ADMIN_ONLY: ReadonlySet<Scope> = new Set<Scope>(['audit:read'])

/**
 * The scopes a person acting on the dashboard holds: every scope their role allows. Owners and
 * admins hold them all; members and guests all but `audit:read`. This is the one place the
 * dashboard decides it: the key form offers exactly these, and `scopesBeyond` refuses the rest.
 */
export function scopesOfRole(role: Role): ReadonlySet<Scope> {
  const all = Object.keys(SCOPES) as Scope[]
  if (role === 'owner' || role === 'admin') return new Set(all)
  return new Set(all.filter((scope) => !ADMIN_ONLY.has(scope)))
}
