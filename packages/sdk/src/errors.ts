import type { components } from './generated/openapi.ts'

/** A code of the API's error catalogue (docs/errors.md); branch on it, never on the text. */
export type ProblemCode = components['schemas']['Problem']['code']

/** One located detail of an error, such as a field that failed validation. */
export interface ProblemDetail {
  /** A JSON pointer into the request, such as `/due`. */
  path: string
  message: string
}

// The code a non-problem answer (a proxy's 502 page, say) stands for.
function codeOfStatus(status: number): ProblemCode {
  if (status === 429) return 'rate_limited'
  if (status === 503) return 'service_unavailable'
  if (status >= 500) return 'internal_error'
  if (status === 404) return 'not_found'
  if (status === 401) return 'unauthenticated'
  if (status === 403) return 'forbidden'
  return 'invalid_request'
}

/** The API answered with an error: its problem+json body, read into fields. */
export class WorkgraphError extends Error {
  /** The HTTP status. */
  readonly status: number
  /** The stable code of the catalogue. */
  readonly code: ProblemCode
  /** What went wrong, for people. */
  readonly detail: string
  /** The request's id; quote it when asking for help. */
  readonly requestId: string | undefined
  /** Located details, such as each field that failed validation. */
  readonly errors: ProblemDetail[]
  /** For `insufficient_scope`: the scopes the call needs. */
  readonly requiredScopes: string[] | undefined

  constructor(status: number, body: unknown, requestId: string | undefined) {
    const problem = (typeof body === 'object' && body !== null ? body : {}) as Partial<
      components['schemas']['Problem']
    >
    const detail = typeof problem.detail === 'string' ? problem.detail : `HTTP ${status}`
    super(detail)
    this.name = 'WorkgraphError'
    this.status = status
    this.code = typeof problem.code === 'string' ? problem.code : codeOfStatus(status)
    this.detail = detail
    this.requestId = problem.request_id ?? requestId
    this.errors = Array.isArray(problem.errors) ? problem.errors : []
    this.requiredScopes = problem.required_scopes
  }
}

/** No answer came: the network failed or the request timed out (after every retry). */
export class WorkgraphConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'WorkgraphConnectionError'
  }
}
