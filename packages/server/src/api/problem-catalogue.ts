/**
 * Every error code the API returns, with its HTTP status, title and what it means and what to do:
 * the error pages at the problems' `type` URIs read it, and docs/errors.md's table says exactly
 * the same (a test holds the two together).
 */
export const PROBLEMS = {
  invalid_request: {
    status: 400,
    title: 'Invalid request',
    meaning:
      'The request is malformed: a body that is not JSON or not UTF-8 (even on a route that reads no body), a bad cursor, a bad `Idempotency-Key`, a malformed URL, HTTP that does not parse, a missing or second `Host`, a second `Authorization`. Fix the request.',
  },
  validation_failed: {
    status: 422,
    title: 'Validation failed',
    meaning:
      'The request parsed but a value is wrong: a wrong type, out of range, an unknown field or parameter, a broken business rule. `errors` lists each one.',
  },
  unauthenticated: {
    status: 401,
    title: 'Authentication required',
    meaning: 'No `Authorization: Bearer …` header.',
  },
  invalid_token: {
    status: 401,
    title: 'Invalid token',
    meaning: 'The token is malformed, unknown or revoked.',
  },
  token_expired: {
    status: 401,
    title: 'Token expired',
    meaning:
      'The token has expired (an API key past its rotation overlap, an OAuth access token past its hour).',
  },
  insufficient_scope: {
    status: 403,
    title: 'Insufficient scope',
    meaning: 'The token lacks a scope the route needs; `required_scopes` lists them.',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    meaning:
      "The token has the scope but its owner's role does not allow the action (for example, the audit log is for owners and admins).",
  },
  not_found: {
    status: 404,
    title: 'Not found',
    meaning:
      'No such route, or no resource with that id **that you can open**. A hidden resource and a missing one give the same answer, byte for byte apart from `request_id`.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    meaning: 'The path exists with other methods; the `Allow` header lists them.',
  },
  request_timeout: {
    status: 408,
    title: 'Request timeout',
    meaning:
      'The request did not arrive in time, or its body stopped arriving; the connection was closed. Retry.',
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    meaning: 'The request conflicts with the current state of the resource.',
  },
  idempotency_key_in_use: {
    status: 409,
    title: 'Idempotency key in use',
    meaning:
      'A request with the same `Idempotency-Key` is still running; retry after `Retry-After` seconds.',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key reused',
    meaning:
      'The `Idempotency-Key` was used with a different request in the last 24 hours. Use a new key.',
  },
  cursor_expired: {
    status: 410,
    title: 'Cursor expired',
    meaning:
      'A change-feed cursor older than the 30 days of retained changes. Resynchronize: re-read the lists you keep, then follow a fresh cursor.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    meaning: 'The body is larger than the limit (1 MiB by default).',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    meaning: 'Bodies must be `application/json`.',
  },
  expectation_failed: {
    status: 417,
    title: 'Expectation failed',
    meaning:
      'An `Expect` header other than `100-continue`, the only expectation the server meets. Drop the header.',
  },
  request_header_fields_too_large: {
    status: 431,
    title: 'Request header fields too large',
    meaning:
      'The request line and headers together are larger than 16 KiB. Send fewer or shorter headers.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limited',
    meaning: 'Too many requests for this token; retry after `Retry-After` seconds.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    meaning:
      'A fault on our side. Nothing was changed; retrying with the same `Idempotency-Key` is safe.',
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    meaning:
      'The server is draining or full, or its database is unreachable, busy or out of disk; nothing was done. Retry after `Retry-After`.',
  },
} as const

/** A code of the catalogue. */
export type ProblemCode = keyof typeof PROBLEMS

/** One located detail of a problem, such as a field that failed validation. */
export interface ProblemDetailItem {
  path: string
  message: string
  /** What an ambiguous name names, as the caller may see it (api/named-reference.ts). */
  candidates?: { id: string; name: string }[]
}

/** Extra members of a problem body and headers of its response. */
export interface ProblemExtras {
  errors?: ProblemDetailItem[]
  required_scopes?: string[]
  headers?: Record<string, string>
}

/** An error that becomes an RFC 9457 problem+json response with a code from the catalogue. */
export class ProblemError extends Error {
  readonly code: ProblemCode
  readonly status: number
  readonly extras: ProblemExtras

  constructor(code: ProblemCode, detail: string, extras: ProblemExtras = {}) {
    super(detail)
    this.name = 'ProblemError'
    this.code = code
    this.status = PROBLEMS[code].status
    this.extras = extras
  }
}

/**
 * The one 404 of the API. It is the same whether the resource does not exist, belongs to another
 * workspace or is hidden from the caller, so a 404 never confirms that anything exists. It names
 * no id; for an id given in a filter or a body, `pointer` locates the parameter that was wrong.
 */
export function notFound(pointer?: string): ProblemError {
  return new ProblemError(
    'not_found',
    'No such resource: the id does not exist, or this token cannot open it.',
    pointer
      ? { errors: [{ path: pointer, message: 'names no resource this token can open' }] }
      : {},
  )
}
