/** A token's request budget as the answer's `RateLimit-*` headers state it (docs/api.md). */
export interface RateLimit {
  /** Requests of this kind (reads or writes) the token may make per window. */
  limit: number
  /** Requests left in the current window. */
  remaining: number
  /** Seconds until the window ends. */
  reset: number
  /** The limit and its window as `RateLimit-Policy` says it, such as `600;w=60`. */
  policy: string | undefined
}

/**
 * What the HTTP answer of a call said beyond its body, as Stripe's SDK keeps it in `lastResponse`:
 * the status, the request id, whether an idempotent write was replayed, the rate limit and every
 * header.
 */
export interface ResponseMeta {
  /** The HTTP status of the answer (after any retries). */
  status: number
  /** `X-Request-Id`: quote it when asking for help. */
  requestId: string | undefined
  /** True when `Idempotent-Replayed: true`: the stored answer of an earlier request with the key. */
  replayed: boolean
  /** The Idempotency-Key the request was sent with (yours, or the one generated for it). */
  idempotencyKey: string | undefined
  /** The `RateLimit-*` headers, when the answer had them. */
  rateLimit: RateLimit | undefined
  /** Every header of the answer. */
  headers: Headers
}

/** An answer with its response metadata in the non-enumerable `lastResponse` property. */
export type WithResponse<T> = T & {
  /** The HTTP answer this value came from; not enumerable, so JSON and spreads leave it out. */
  readonly lastResponse: ResponseMeta
}

// An integer header, or undefined when absent or not a number.
function integerHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)
  if (value === null || value.trim() === '') return undefined
  const number = Number(value)
  return Number.isFinite(number) ? number : undefined
}

/** Reads the metadata of an answer. */
export function readResponseMeta(
  response: Response,
  idempotencyKey: string | undefined,
): ResponseMeta {
  const { headers } = response
  const limit = integerHeader(headers, 'ratelimit-limit')
  const remaining = integerHeader(headers, 'ratelimit-remaining')
  const reset = integerHeader(headers, 'ratelimit-reset')
  return {
    status: response.status,
    requestId: headers.get('x-request-id') ?? undefined,
    replayed: headers.get('idempotent-replayed') === 'true',
    idempotencyKey,
    rateLimit:
      limit === undefined || remaining === undefined || reset === undefined
        ? undefined
        : { limit, remaining, reset, policy: headers.get('ratelimit-policy') ?? undefined },
    headers,
  }
}

/** Gives `value` its `lastResponse`, not enumerable, so it stays out of JSON and spreads. */
export function withResponse<T extends object>(value: T, meta: ResponseMeta): WithResponse<T> {
  Object.defineProperty(value, 'lastResponse', { value: meta, enumerable: false })
  return value as WithResponse<T>
}
