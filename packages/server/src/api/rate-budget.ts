import type { Caller } from '../access/caller.ts'
import type { Config } from '../config.ts'
import type { Clock } from '../lib/clock.ts'
import { ProblemError } from './problem-catalogue.ts'
import type { RateLimitKind, RateLimitStore } from './rate-limit-store.ts'

const WINDOW_MS = 60_000

/** What the rate-limit hook needs. */
export interface RateLimitDeps {
  store: RateLimitStore
  config: Config
  clock: Clock
}

/** Where a budget's headers are set: an HTTP reply. */
export interface BudgetHeaders {
  header(name: string, value: string): unknown
}

/** Sets the `RateLimit-*` headers of a budget as spending left it. */
export function reportBudget(reply: BudgetHeaders, spent: SpentBudget): void {
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
 * budget of this minute. Routes spend it in the rate-limit hook; `/mcp` spends it for each message.
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
