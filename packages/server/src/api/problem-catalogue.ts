/**
 * Every error code the API returns, with its HTTP status and title (docs/errors.md). docs/errors.md
 * documents exactly these; a test holds the two together.
 */
export const PROBLEMS = {
  invalid_request: { status: 400, title: 'Invalid request' },
  validation_failed: { status: 422, title: 'Validation failed' },
  unauthenticated: { status: 401, title: 'Authentication required' },
  invalid_token: { status: 401, title: 'Invalid token' },
  token_expired: { status: 401, title: 'Token expired' },
  insufficient_scope: { status: 403, title: 'Insufficient scope' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  request_timeout: { status: 408, title: 'Request timeout' },
  conflict: { status: 409, title: 'Conflict' },
  idempotency_key_in_use: { status: 409, title: 'Idempotency key in use' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused' },
  cursor_expired: { status: 410, title: 'Cursor expired' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  expectation_failed: { status: 417, title: 'Expectation failed' },
  request_header_fields_too_large: { status: 431, title: 'Request header fields too large' },
  rate_limited: { status: 429, title: 'Rate limited' },
  internal_error: { status: 500, title: 'Internal error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
} as const

/** A code of the catalogue. */
export type ProblemCode = keyof typeof PROBLEMS

/** One located detail of a problem, such as a field that failed validation. */
export interface ProblemDetailItem {
  path: string
  message: string
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
