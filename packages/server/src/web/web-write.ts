import type { FastifyRequest } from 'fastify'
import { type Caller, callerOf } from '../access/caller.ts'
import type { Role } from '../access/principal.ts'
import { SCOPES, type Scope } from '../access/scopes.ts'
import type { AppDeps } from '../app-deps.ts'
import { auditActorOf } from '../audit/audit-actor.ts'
import type { AuditActor } from '../audit/audit-writer.ts'
import { spendBudget } from '../http/rate-limit.ts'
import { runWrite } from '../writes/run-write.ts'
import type { WriteContext } from '../writes/write-context.ts'
import type { WebContext } from './web-context.ts'

/** The audit actor of a dashboard write: the session as the credential, marked `via: 'web'`. */
export function webAuditActor(request: FastifyRequest): AuditActor {
  const web = signedIn(request)
  const userAgent = request.headers['user-agent']
  const origin = {
    requestId: request.id,
    ip: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent : null,
  }
  return { ...auditActorOf(web.caller, origin), via: 'web' }
}

// Only owners and admins read the audit log (the API checks the role as well as the scope).
const ADMIN_ONLY: ReadonlySet<Scope> = new Set(['audit:read'])

/**
 * The scopes a person holds on the dashboard: every scope their role allows (docs/dashboard.md,
 * "Writes from the dashboard"). A session is the person at the keyboard, not a delegated token,
 * so it is not narrowed; each command still applies its own role and visibility rules.
 */
export function webScopes(role: Role): ReadonlySet<Scope> {
  const all = Object.keys(SCOPES) as Scope[]
  const admin = role === 'owner' || role === 'admin'
  return new Set(all.filter((scope) => admin || !ADMIN_ONLY.has(scope)))
}

/** The caller a dashboard write acts as: the session's person with `webScopes` of their role. */
export function webWriteCaller(web: WebContext): Caller {
  const { principal, credential } = web.caller
  return callerOf(principal, { ...credential, scopes: webScopes(web.session.role) })
}

/**
 * Runs a command from a dashboard form like an API write: it spends the session's write budget,
 * goes through `runWrite` (one transaction, audit entry `via: 'web'`), and returns what the
 * command returned. Problems (4xx) are thrown for the page to show beside its fields.
 */
export async function webWrite<T>(
  deps: AppDeps,
  request: FastifyRequest,
  command: (w: WriteContext) => Promise<T>,
): Promise<T> {
  const caller = webWriteCaller(signedIn(request))
  const budget = { store: deps.rateLimits, config: deps.config, clock: deps.clock }
  const spent = await spendBudget(budget, caller, 'write')
  if (spent.exceeded) throw spent.exceeded
  let value: T | undefined
  const operation = `web:${request.routeOptions.url ?? request.url}`
  await runWrite(
    deps,
    {
      caller,
      actor: webAuditActor(request),
      idempotencyKey: null,
      fingerprint: operation,
      operation,
      serialize: () => '{}',
    },
    async (w) => {
      value = await command(w)
      return { status: 200, body: null }
    },
  )
  return value as T
}

function signedIn(request: FastifyRequest): WebContext {
  if (!request.web) throw new Error('a dashboard write needs a signed-in page (requireSignIn)')
  return request.web
}
