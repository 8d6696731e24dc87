import type { Counter } from 'prom-client'
import {
  type RateLimitStore,
  type RateLimitSubject,
  SIGN_IN_BUDGETS,
} from '../api/rate-limit-store.ts'

/**
 * A rate-limit store that counts each hit over its limit as a refusal: every caller turns a
 * request away exactly when the count it gets back exceeds the limit it passed. The one place
 * every budget goes through (requests, MCP calls, sign-in attempts), so none is left uncounted.
 */
export function countingRefusals(
  store: RateLimitStore,
  refusals: Counter<'budget'>,
): RateLimitStore {
  return {
    async hit(subject, windowStart, limit) {
      const count = await store.hit(subject, windowStart, limit)
      if (count > limit) refusals.inc({ budget: budgetOf(subject) })
      return count
    },
    close: () => store.close(),
  }
}

// The label of a budget: a token's reads or writes, or sign-in attempts by email or by address.
function budgetOf(subject: RateLimitSubject): string {
  if (subject.workspaceId !== SIGN_IN_BUDGETS) return subject.kind
  return subject.tokenId.startsWith('ip:') ? 'sign_in_address' : 'sign_in_email'
}
