import type { Credential } from './authenticate-token.ts'
import { fencedPrincipal, type Principal } from './principal.ts'
import { readableKinds } from './scopes.ts'
import { type Visibility, visibilityFor } from './visibility.ts'

/**
 * Who a request runs as, whatever its transport (HTTP, MCP): the principal set of the token's
 * owner, the credential it presented, and what follows from them for every read.
 */
export interface Caller {
  readonly principal: Principal
  readonly credential: Credential
  /** The principal's visibility predicates: every read filters with these. */
  readonly visibility: Visibility
  /** Resource types the token may read: records, links and search name only these. */
  readonly readableKinds: string[]
}

/**
 * The caller of a resolved principal and the credential it presented: the one place a request's
 * principal meets its credential's fence, whatever the transport.
 */
export function callerOf(principal: Principal, credential: Credential): Caller {
  const fenced = fencedPrincipal(principal, credential.fence)
  return {
    principal: fenced,
    credential,
    visibility: visibilityFor(fenced),
    readableKinds: readableKinds(credential.scopes),
  }
}
