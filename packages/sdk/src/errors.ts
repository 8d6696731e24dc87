import type { components } from './generated/openapi.ts'

/** A code of the API's error catalogue (docs/errors.md); branch on it, never on the text. */
export type ProblemCode = components['schemas']['Problem']['code']

/**
 * An error code of the OAuth endpoints (RFC 6749 and RFC 7009), which answer
 * `{ error, error_description }` rather than a problem.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_token_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'server_error'
  | 'temporarily_unavailable'

/** The `code` of a WorkgraphError: the catalogue's, OAuth's, or `connection_error` (no answer). */
export type ErrorCode = ProblemCode | OAuthErrorCode | 'connection_error'

/** One located detail of an error, such as a field that failed validation. */
export interface ProblemDetail {
  /** A JSON pointer into the request, such as `/due`. */
  path: string
  /** What is wrong there, for people. */
  message: string
}

/** An error answer's body: a problem (RFC 9457), or an OAuth error. */
export type ErrorBody = components['schemas']['Problem'] | components['schemas']['OAuthError']

/** What a WorkgraphError is made of. */
export interface WorkgraphErrorInit {
  status: number | undefined
  code: ErrorCode
  title: string
  detail: string
  requestId: string | undefined
  headers: Headers | undefined
  body: ErrorBody | undefined
  cause?: unknown
}

/**
 * Every error of a call: the API answered with an error (a subclass by status, or this class for
 * another status), or no answer came (`ConnectionError`). Branch on `code`, a stable catalogue
 * code, or on the subclass.
 */
export class WorkgraphError extends Error {
  /** The HTTP status; undefined when no answer came. */
  readonly status: number | undefined
  /** The stable code of the catalogue (docs/errors.md), or of OAuth on the OAuth endpoints. */
  readonly code: ErrorCode
  /** The problem's short title. */
  readonly title: string
  /** What went wrong, for people. */
  readonly detail: string
  /** The request's id; quote it when asking for help. */
  readonly requestId: string | undefined
  /** The answer's headers; undefined when no answer came. */
  readonly headers: Headers | undefined
  /** The error answer's body as sent: a problem, or an OAuth error. */
  readonly body: ErrorBody | undefined
  /** Located details, such as each field that failed validation. */
  readonly errors: ProblemDetail[]
  /** For `insufficient_scope`: the scopes the call needs. */
  readonly requiredScopes: string[] | undefined

  constructor(init: WorkgraphErrorInit) {
    super(init.detail, init.cause === undefined ? undefined : { cause: init.cause })
    // Spelled out rather than read from the class, whose name a minifier may change.
    this.name = 'WorkgraphError'
    this.status = init.status
    this.code = init.code
    this.title = init.title
    this.detail = init.detail
    this.requestId = init.requestId
    this.headers = init.headers
    this.body = init.body
    const problem = (init.body ?? {}) as Partial<components['schemas']['Problem']>
    this.errors = Array.isArray(problem.errors) ? problem.errors : []
    this.requiredScopes = problem.required_scopes
  }
}

/** 401: the token is missing, unknown, expired or revoked (`unauthenticated`, `invalid_token`…). */
export class AuthenticationError extends WorkgraphError {
  override readonly name = 'AuthenticationError'
}

/** 403: the token may not do this (`forbidden`, `insufficient_scope` with `requiredScopes`). */
export class PermissionError extends WorkgraphError {
  override readonly name = 'PermissionError'
}

/** 404: no such resource, or one the token may not open (the API does not tell them apart). */
export class NotFoundError extends WorkgraphError {
  override readonly name = 'NotFoundError'
}

/** 409: the request conflicts with the resource's state, or its idempotency key is in use. */
export class ConflictError extends WorkgraphError {
  override readonly name = 'ConflictError'
}

/** 400 or 422: the request is malformed or fails validation; `errors` locates each field. */
export class ValidationError extends WorkgraphError {
  override readonly name = 'ValidationError'
}

/** 429: over the token's budget; `retryAfter` says in how many seconds to try again. */
export class RateLimitError extends WorkgraphError {
  override readonly name = 'RateLimitError'
  /** Seconds to wait before trying again (`Retry-After`), when the answer said. */
  readonly retryAfter: number | undefined

  constructor(init: WorkgraphErrorInit) {
    super(init)
    this.retryAfter = retryAfterSeconds(init.headers)
  }
}

/** 503: the service cannot answer now; `retryAfter` says in how many seconds to try again. */
export class ServiceUnavailableError extends WorkgraphError {
  override readonly name = 'ServiceUnavailableError'
  /** Seconds to wait before trying again (`Retry-After`), when the answer said. */
  readonly retryAfter: number | undefined

  constructor(init: WorkgraphErrorInit) {
    super(init)
    this.retryAfter = retryAfterSeconds(init.headers)
  }
}

/** No answer came: the network failed or each try timed out (after every retry); no status. */
export class ConnectionError extends WorkgraphError {
  override readonly name = 'ConnectionError'
  constructor(message: string, cause: unknown) {
    super({
      status: undefined,
      code: 'connection_error',
      title: 'Connection error',
      detail: message,
      requestId: undefined,
      headers: undefined,
      body: undefined,
      cause,
    })
  }
}

// `Retry-After` in whole seconds (it may be seconds or an HTTP date).
function retryAfterSeconds(headers: Headers | undefined): number | undefined {
  const value = headers?.get('retry-after')
  if (value === null || value === undefined || value.trim() === '') return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000))
}

// The code a body without one (a proxy's 502 page, say) stands for.
function codeOfStatus(status: number): ProblemCode {
  if (status === 429) return 'rate_limited'
  if (status === 503) return 'service_unavailable'
  if (status >= 500) return 'internal_error'
  if (status === 404) return 'not_found'
  if (status === 401) return 'unauthenticated'
  if (status === 403) return 'forbidden'
  return 'invalid_request'
}

// The class of an error answer, by its status.
function classOfStatus(status: number): typeof WorkgraphError {
  if (status === 401) return AuthenticationError
  if (status === 403) return PermissionError
  if (status === 404) return NotFoundError
  if (status === 409) return ConflictError
  if (status === 400 || status === 422) return ValidationError
  if (status === 429) return RateLimitError
  if (status === 503) return ServiceUnavailableError
  return WorkgraphError
}

/** The error for an error answer: its problem (or OAuth error) read into fields. */
export function errorOfAnswer(status: number, body: unknown, headers: Headers): WorkgraphError {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  const text = (name: string) => (typeof fields[name] === 'string' ? fields[name] : undefined)
  // An OAuth error names its code `error`; a problem names it `code`.
  const code = (text('code') ?? text('error') ?? codeOfStatus(status)) as ErrorCode
  const detail = text('detail') ?? text('error_description') ?? `HTTP ${status}`
  const ErrorClass = classOfStatus(status)
  return new ErrorClass({
    status,
    code,
    title: text('title') ?? code,
    detail,
    requestId: text('request_id') ?? headers.get('x-request-id') ?? undefined,
    headers,
    body: text('code') || text('error') ? (fields as ErrorBody) : undefined,
  })
}
