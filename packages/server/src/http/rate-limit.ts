import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../config.ts'
import type { Clock } from '../lib/clock.ts'
import { ProblemError } from './problem-catalogue.ts'
import type { RateLimitKind, RateLimitStore } from './rate-limit-store.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route changes something: it spends the write budget and honours Idempotency-Key. */
    write?: boolean
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
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = request.authentication
    if (!auth) return
    const kind: RateLimitKind = request.routeOptions.config.write ? 'write' : 'read'
    const limit =
      kind === 'write' ? deps.config.writeRateLimitPerMinute : deps.config.readRateLimitPerMinute
    const now = deps.clock.now().getTime()
    const windowStart = now - (now % WINDOW_MS)
    const hits = await deps.store.hit(
      { workspaceId: auth.principal.workspaceId, tokenId: auth.credential.id, kind },
      new Date(windowStart),
    )
    const reset = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000))
    reply.header('ratelimit-limit', String(limit))
    reply.header('ratelimit-remaining', String(Math.max(0, limit - hits)))
    reply.header('ratelimit-reset', String(reset))
    reply.header('ratelimit-policy', `${limit};w=60`)
    if (hits > limit) {
      throw new ProblemError(
        'rate_limited',
        `This token made more than ${limit} ${kind} requests this minute; retry in ${reset} s.`,
        { headers: { 'retry-after': String(reset) } },
      )
    }
  })
}
