/** How many times a request is retried, and the longest wait the client accepts between tries. */
export interface RetryOptions {
  /** Retries after the first try (default 3; 0 turns retries off). */
  maxRetries: number
  /** A `Retry-After` longer than this (ms) is not waited for: the error is thrown (default 60 s). */
  maxRetryAfterMs: number
}

/** The defaults: three retries, and at most a minute's wait when the server asks for one. */
export const DEFAULT_RETRIES: RetryOptions = { maxRetries: 3, maxRetryAfterMs: 60_000 }

/**
 * Whether an answer is worth another try: a rate limit, a key whose first request is still running,
 * or a server-side failure. Every other 4xx would fail the same way again.
 */
export function isRetryableAnswer(status: number, code: string | undefined): boolean {
  return status === 429 || (status === 409 && code === 'idempotency_key_in_use') || status >= 500
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** The wait before retry `retry` (0-based) without a `Retry-After`: exponential, fully jittered. */
export function backoffMs(retry: number, random = Math.random): number {
  const ceiling = Math.min(8_000, 500 * 2 ** retry)
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}
