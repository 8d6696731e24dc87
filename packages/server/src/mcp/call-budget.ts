import type { FastifyReply } from 'fastify'
import type { Caller } from '../access/caller.ts'
import type { ProblemError } from '../api/problem-catalogue.ts'
import {
  type RateLimitDeps,
  reportBudget,
  type SpentBudget,
  spendBudget,
} from '../api/rate-budget.ts'
import type { RateLimitKind } from '../api/rate-limit-store.ts'

/**
 * The budgets one `/mcp` request spends, call by call (docs/mcp.md, "Limits"): each JSON-RPC
 * message is charged as what it does, so a batch of a hundred calls costs a hundred.
 */
export class CallBudget {
  readonly #deps: RateLimitDeps
  readonly #caller: Caller
  #tightest: SpentBudget | null = null

  constructor(deps: RateLimitDeps, caller: Caller) {
    this.#deps = deps
    this.#caller = caller
  }

  /** Spends one call of `kind`; the 429 to answer it with when it went over the budget. */
  async spend(kind: RateLimitKind): Promise<ProblemError | null> {
    const spent = await spendBudget(this.#deps, this.#caller, kind)
    // The headers describe the budget with the least left, so a client pacing itself by them
    // never runs into the other one.
    if (!this.#tightest || spent.remaining <= this.#tightest.remaining) this.#tightest = spent
    return spent.exceeded
  }

  /** Sets the `RateLimit-*` headers of the answer (when anything was spent). */
  report(reply: FastifyReply): void {
    if (this.#tightest) reportBudget(reply, this.#tightest)
  }
}
