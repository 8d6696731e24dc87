import type { Caller } from '../access/caller.ts'
import { scopesOfRole } from '../access/role-scopes.ts'
import type { WebContext } from './web-context.ts'

/**
 * The caller a dashboard write runs as: the session's person and credential, holding the scopes
 * of their role (the session's reading caller holds only read scopes).
 */
export function webCallerFor(web: WebContext): Caller {
  const { caller } = web
  return {
    ...caller,
    credential: { ...caller.credential, scopes: scopesOfRole(web.session.role) },
  }
}
