import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isDryRun } from '../api/dry-run.ts'
import { type RateLimitDeps, reportBudget, spendBudget } from '../api/rate-budget.ts'
import type { RateLimitKind } from '../api/rate-limit-store.ts'

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
