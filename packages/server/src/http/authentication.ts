import type { FastifyInstance, FastifyRequest } from 'fastify'
import { authenticateBearer } from '../access/authenticate-bearer.ts'
import { type Caller, callerOf } from '../access/caller.ts'
import type { PrincipalCache } from '../access/principal-cache.ts'
import { missingScopes, type ScopeRequirement } from '../access/scopes.ts'
import { ProblemError } from '../api/problem-catalogue.ts'
import type { Scope } from '../catalogue/scopes.ts'
import type { Db } from '../db/database.ts'
import type { Clock } from '../lib/clock.ts'
import { catalogueKindOf } from '../lib/ids.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Scopes the route requires. Every route declares these, or `public: true`. Routes on any
     * resource (`/v1/resources/:id…`) declare them per kind of id instead.
     */
    scopes?: ScopeRequirement
    /** The route needs no token (health checks, the OpenAPI document). */
    public?: boolean
    /**
     * Scopes a client should ask for when it has no token yet, named in the 401 challenge
     * (`scope="…"`); an OAuth client then requests these instead of every scope there is.
     */
    challengeScopes?: readonly Scope[]
  }
  interface FastifyRequest {
    /** Set by the authentication hook on every non-public route. */
    authentication: Caller | null
    /**
     * Authenticates the request again, as a request made now would be: a credential that has
     * ended since (revoked, expired, its grant or a credential it was made with ended) throws the
     * same 401, and the principal is read at the current ACL epoch. For a request that waits and
     * then reads again (a long poll); on a public route it throws.
     */
    authenticateAgain(): Promise<Caller>
  }
}

/** What the authentication hook needs. */
export interface AuthenticationDeps {
  db: Db
  clock: Clock
  principals: PrincipalCache
  /** Parameters of every WWW-Authenticate challenge: `realm` and `resource_metadata`. */
  challenge: string
  /** This API's identifier: OAuth access tokens must be issued for it. */
  resource: string
}

const BEARER = /^Bearer +([^\s]+) *$/i

/**
 * Installs token authentication and scope checks. Runs in onRequest, before the body is read:
 * an unauthenticated request costs no parsing. Routes declare their scopes in their own
 * definition; a route that declares neither scopes nor `public` fails at start-up.
 */
export function installAuthentication(app: FastifyInstance, deps: AuthenticationDeps): void {
  app.decorateRequest('authentication', null)
  app.decorateRequest('authenticateAgain', async function (this: FastifyRequest) {
    const caller = await authenticate(deps, this)
    if (!caller) throw new Error('authenticateAgain() called on a public route')
    this.authentication = caller
    return caller
  })
  app.addHook('onRoute', (route) => {
    if (!route.config?.public && !route.config?.scopes) {
      throw new Error(
        `Route ${route.method} ${route.url} must declare config.scopes or config.public`,
      )
    }
  })
  app.addHook('onRequest', async (request: FastifyRequest) => {
    request.authentication = await authenticate(deps, request)
  })
}

/**
 * The caller of a request on a protected route, null on a public one; a missing, ended or
 * insufficient credential throws its 401 or 403.
 */
async function authenticate(
  deps: AuthenticationDeps,
  request: FastifyRequest,
): Promise<Caller | null> {
  const config = request.routeOptions.config
  if (config.public || !config.scopes) return null // public, or no route matched (the 404 handler answers)
  const header = request.headers.authorization
  if (!header) {
    const scope = config.challengeScopes ? `, scope="${config.challengeScopes.join(' ')}"` : ''
    throw new ProblemError(
      'unauthenticated',
      'Send a token in the Authorization header: "Bearer <token>".',
      {
        headers: { 'www-authenticate': `Bearer ${deps.challenge}${scope}` },
      },
    )
  }
  const token = BEARER.exec(header)?.[1]
  const identity = token
    ? await authenticateBearer(deps.db, token, deps.clock.now(), deps.resource)
    : 'invalid'
  if (identity === 'invalid' || identity === 'expired') {
    const code = identity === 'expired' ? 'token_expired' : 'invalid_token'
    const detail =
      identity === 'expired'
        ? 'The token has expired.'
        : 'The token is malformed, unknown or revoked.'
    throw new ProblemError(code, detail, {
      headers: {
        'www-authenticate': `Bearer ${deps.challenge}, error="invalid_token", error_description="${detail}"`,
      },
    })
  }
  const required = requiredScopes(config.scopes, request.params, identity.credential.scopes)
  const missing = missingScopes(identity.credential.scopes, required)
  if (missing.length > 0) {
    throw new ProblemError(
      'insufficient_scope',
      `This request needs the scope ${missing.join(', ')}.`,
      {
        required_scopes: [...required],
        headers: {
          'www-authenticate': `Bearer ${deps.challenge}, error="insufficient_scope", scope="${required.join(' ')}"`,
        },
      },
    )
  }
  const principal = await deps.principals.get(deps.db, identity.actor, identity.aclEpoch)
  return callerOf(principal, identity.credential)
}

/**
 * The scopes a request needs. For routes on any resource they depend on the id's prefix only,
 * never on whether the resource exists, so a 403 reveals nothing; an id of no known kind needs
 * no scope here and is answered with the API's one 404.
 */
function requiredScopes(
  scopes: ScopeRequirement,
  params: unknown,
  granted: ReadonlySet<Scope>,
): readonly Scope[] {
  if ('anyOf' in scopes) return scopes.anyOf.some((scope) => granted.has(scope)) ? [] : scopes.anyOf
  if (!('byIdKind' in scopes)) return scopes
  const id = (params as { id?: string }).id ?? ''
  return scopes.byIdKind[catalogueKindOf(id)?.name ?? ''] ?? []
}
