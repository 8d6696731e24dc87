import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Caller } from '../access/caller.ts'
import type { Config } from '../config.ts'
import type { Clock } from '../lib/clock.ts'
import { isDryRun } from './dry-run.hook.ts'
import { ProblemError } from './problem-catalogue.ts'
import type { RateLimitKind, RateLimitStore } from './rate-limit-store.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route changes something: it spends the write budget and honours Idempotency-Key. */
    write?: boolean
    /**
     * The route spends the budgets itself, once per call its request carries (`/mcp`: each
     * JSON-RPC message); a request refused before its handler counts as one read.
     */
    ratedPerCall?: boolean
  }
}

const WINDOW_MS = 60_000

/** What the rate-limit hook needs. */
export interface RateLimitDeps {
  store: RateLimitStore
  config: Config
  clock: Clock
}

/**
 * Limits requests per token and minute (docs/api.md, "Rate limits"): reads and writes have separate
 * budgets. Runs after authentication, so it counts tokens, not guesses; every authenticated
 * response carries `RateLimit-*` headers, and a request over the limit gets 429 with `Retry-After`
 * (it still counts: a client that ignores 429 does not get through sooner).
 */
export function installRateLimits(app: FastifyInstance, deps: RateLimitDeps): void {
  // Counts still held in memory reach the shared table before the database closes.
  app.addHook('onClose', () => deps.store.close())
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = request.authentication
    if (!auth || request.routeOptions.config.ratedPerCall) return
    // A dry run changes nothing: it is a read (the hook has not checked its flag yet; only an
    // exact `true` counts, anything else will be refused or written).
    const kind: RateLimitKind =
      request.routeOptions.config.write && !isDryRun(request) ? 'write' : 'read'
    const spent = await spendBudget(deps, auth, kind)
    reportBudget(reply, spent)
    if (spent.exceeded) throw spent.exceeded
  })
  // A route rated per call spends nothing for a request its handler never saw (a body that does
  // not parse, a refused Origin): that request is one read, so refusals are not free either.
  app.addHook('onRoute', (route) => {
    if (!route.config?.ratedPerCall) return
    const hooks = route.onSend === undefined ? [] : [route.onSend].flat()
    route.onSend = [
      ...hooks,
      async (request: FastifyRequest, reply: FastifyReply) => {
        const auth = request.authentication
        if (!auth || reply.hasHeader('ratelimit-limit')) return
        reportBudget(reply, await spendBudget(deps, auth, 'read'))
      },
    ]
  })
}

/** Sets the `RateLimit-*` headers of a budget as spending left it. */
export function reportBudget(reply: FastifyReply, spent: SpentBudget): void {
  reply.header('ratelimit-limit', String(spent.limit))
  reply.header('ratelimit-remaining', String(spent.remaining))
  reply.header('ratelimit-reset', String(spent.reset))
  reply.header('ratelimit-policy', `${spent.limit};w=60`)
}

/** What spending one request of a budget left: the numbers of the `RateLimit-*` headers. */
export interface SpentBudget {
  limit: number
  remaining: number
  /** Seconds until the window resets. */
  reset: number
  /** The 429 to answer when the request went over the limit; null within it. */
  exceeded: ProblemError | null
}

/**
 * Counts one request (or, on a route rated per call, one call) against the caller's read or write
 * budget of this minute. Routes spend it in the hook above; `/mcp` spends it for each message.
 */
export async function spendBudget(
  deps: RateLimitDeps,
  caller: Caller,
  kind: RateLimitKind,
): Promise<SpentBudget> {
  const limit =
    kind === 'write' ? deps.config.writeRateLimitPerMinute : deps.config.readRateLimitPerMinute
  const now = deps.clock.now().getTime()
  const windowStart = now - (now % WINDOW_MS)
  const hits = await deps.store.hit(
    { workspaceId: caller.principal.workspaceId, tokenId: caller.credential.id, kind },
    new Date(windowStart),
    limit,
  )
  const reset = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000))
  const exceeded =
    hits > limit
      ? new ProblemError(
          'rate_limited',
          `This token made more than ${limit} ${kind} requests this minute; retry in ${reset} s.`,
          { headers: { 'retry-after': String(reset) } },
        )
      : null
  return { limit, remaining: Math.max(0, limit - hits), reset, exceeded }
}
