import { isConnectionFailure } from '../db/connection-failure.ts'
import { type ProblemDetailItem, ProblemError } from './problem-catalogue.ts'

// What a framework or validator throws: a code, an HTTP status, or validation errors by part.
interface FrameworkError {
  code?: string
  statusCode?: number
  message?: string
  validationContext?: string
  validation?: AjvError[]
}

interface AjvError {
  instancePath: string
  keyword: string
  message?: string
  params: Record<string, unknown>
}

const FORMAT_MESSAGES: Record<string, string> = {
  date: 'must be a date (YYYY-MM-DD)',
  'date-time': 'must be an RFC 3339 timestamp',
  email: 'must be an email address',
  uri: 'must be an absolute URI',
}

/**
 * Turns Ajv's errors into located, readable problem items: each distinct one once, in the order
 * of the input, and at most MAX_PROBLEM_ITEMS, so that the answer stays small and building it
 * stays linear however many errors there were.
 */
export function validationItems(errors: readonly AjvError[]): ProblemDetailItem[] {
  const seen = new Set<string>()
  const items: ProblemDetailItem[] = []
  for (const error of errors) {
    const item = problemItem(error)
    const key = `${item.path}\u0000${item.message}`
    if (seen.has(key)) continue
    seen.add(key)
    items.push(item)
    if (items.length === MAX_PROBLEM_ITEMS) break
  }
  return items
}

function problemItem(error: AjvError): ProblemDetailItem {
  const at = error.instancePath
  switch (error.keyword) {
    case 'required':
      return { path: `${at}/${error.params.missingProperty}`, message: 'is required' }
    case 'additionalProperties':
      return { path: `${at}/${error.params.additionalProperty}`, message: 'is not a known field' }
    case 'enum':
      return {
        path: at,
        message: `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`,
      }
    case 'format':
      return {
        path: at,
        message:
          FORMAT_MESSAGES[error.params.format as string] ??
          `must match format ${error.params.format}`,
      }
    default:
      return { path: at, message: error.message ?? 'is invalid' }
  }
}

/** The most items a problem's `errors` lists (docs/errors.md). */
export const MAX_PROBLEM_ITEMS = 100

const PART_DETAILS: Record<string, string> = {
  body: 'The body is invalid.',
  querystring: 'The query string is invalid.',
  params: 'The path is invalid.',
  headers: 'A header is invalid.',
}

/** The 422 for a part of the request (Fastify's name for it: body, querystring, params, headers). */
export function invalidPart(part: string, errors: ProblemDetailItem[]): ProblemError {
  return new ProblemError('validation_failed', PART_DETAILS[part] ?? 'The request is invalid.', {
    errors,
  })
}

/** The 503 of a request the database could not serve; nothing it asked for was done. */
export function databaseUnavailable(): ProblemError {
  return new ProblemError('service_unavailable', 'The database is unavailable; retry shortly.', {
    headers: { 'retry-after': '2' },
  })
}

/** Maps anything thrown during a request to a problem from the catalogue; nothing else escapes. */
export function toProblem(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error
  const e = error as FrameworkError
  if (e.validation) return invalidPart(e.validationContext ?? '', validationItems(e.validation))
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ProblemError('payload_too_large', 'The request body is larger than the limit.')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ProblemError('unsupported_media_type', 'Request bodies must be application/json.')
  }
  if (isConnectionFailure(e)) return databaseUnavailable()
  const status = e.statusCode ?? 500
  if (status === 413)
    return new ProblemError('payload_too_large', 'The request body is larger than the limit.')
  if (status === 415)
    return new ProblemError('unsupported_media_type', 'Request bodies must be application/json.')
  if (status >= 400 && status < 500)
    return new ProblemError('invalid_request', safeMessage(e.message))
  return new ProblemError(
    'internal_error',
    'Something went wrong on our side; the request changed nothing.',
  )
}

/** A framework's message about a malformed request: safe to show, kept short. */
export function safeMessage(message: string | undefined): string {
  return (message ?? 'The request is malformed.').slice(0, 300)
}
