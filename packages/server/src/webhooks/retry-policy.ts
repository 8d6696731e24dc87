/*
 * When a failed delivery is tried again (docs/webhooks.md, "Retries, disabling and the log"):
 * ten attempts over about three days, each delay jittered by ±20 % so that a receiver coming
 * back from an outage is not hit by every retry at the same second.
 */

/** Attempts per run of a delivery: the first one and nine retries. */
export const MAX_ATTEMPTS = 10

/** Seconds to wait after the nth failed attempt of a run (index 0 = after the first). */
const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400]

/** An endpoint with no success for this long is disabled (never deleted). */
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000

const JITTER = 0.2
// After a timeout or a 429 the receiver is overloaded: wait at least this long (Svix's penalty).
const OVERLOAD_FLOOR_SECONDS = 60
// A receiver's Retry-After may stretch a delay to twice the scheduled one, or to ten minutes.
const RETRY_AFTER_CAP_SECONDS = 600

/** What one attempt came to. */
export type AttemptOutcome = 'succeeded' | 'gone' | 'failed'

/** The outcome of an HTTP status (null: no response at all). */
export function outcomeOf(status: number | null): AttemptOutcome {
  if (status !== null && status >= 200 && status < 300) return 'succeeded'
  if (status === 410) return 'gone'
  return 'failed'
}

/** What the delay after a failure depends on. */
export interface FailedAttempt {
  /** Attempts made in this run so far, the failed one included (1..MAX_ATTEMPTS). */
  runAttempts: number
  status: number | null
  errorKind: string | null
  /** The response's Retry-After header, if any. */
  retryAfter: string | null
  now: Date
}

/**
 * Milliseconds until the next attempt, or null when the run is exhausted. `random` is in [0, 1)
 * (injectable so tests can pin the jitter).
 */
export function retryDelayMs(
  failure: FailedAttempt,
  random: () => number = Math.random,
): number | null {
  if (failure.runAttempts >= MAX_ATTEMPTS) return null
  const base = RETRY_DELAYS_SECONDS[failure.runAttempts - 1] ?? RETRY_DELAYS_SECONDS.at(-1) ?? 0
  let seconds = base * (1 - JITTER + 2 * JITTER * random())
  const overloaded = failure.status === 429 || failure.errorKind === 'timeout'
  if (overloaded) seconds = Math.max(seconds, OVERLOAD_FLOOR_SECONDS)
  if (failure.status === 429 || failure.status === 503) {
    const asked = retryAfterSeconds(failure.retryAfter, failure.now)
    if (asked !== null) {
      const cap = Math.max(2 * seconds, RETRY_AFTER_CAP_SECONDS)
      seconds = Math.min(Math.max(asked, seconds), cap)
    }
  }
  return Math.round(seconds * 1000)
}

/** A Retry-After value (delta seconds or an HTTP date) in seconds from now; null if unusable. */
function retryAfterSeconds(value: string | null, now: Date): number | null {
  if (value === null) return null
  const trimmed = value.trim()
  if (/^\d{1,9}$/.test(trimmed)) return Number(trimmed)
  const at = Date.parse(trimmed)
  if (Number.isNaN(at)) return null
  return Math.max(0, (at - now.getTime()) / 1000)
}
