import type { Caller } from '../access/caller.ts'

/** What carries a request's authentication: an HTTP request, once the hook has run on it. */
export interface Authenticated {
  /** Set by the authentication hook on every protected route; null on public ones. */
  readonly authentication: Caller | null
}

/** The caller of a request on a protected route (always set there by the hook). */
export function authenticated(request: Authenticated): Caller {
  if (!request.authentication) throw new Error('authenticated() called on a public route')
  return request.authentication
}
