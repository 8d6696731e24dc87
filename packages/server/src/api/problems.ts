import { isConnectionFailure } from '../db/connection-failure.ts'
import { databasePressure, PRESSURE_ANSWERS } from '../db/database-pressure.ts'
import { type ProblemDetailItem, ProblemError } from './problem-catalogue.ts'
import { type SchemaError, sentencesOf } from './validation-messages.ts'

// What a framework or validator throws: a code, an HTTP status, or validation errors by part.
interface FrameworkError {
  code?: string
  statusCode?: number
  message?: string
  validationContext?: string
  validation?: SchemaError[]
}

/**
 * Turns Ajv's errors into located sentences that name the field (validation-messages.ts): each
 * distinct one once, in the order of the input, and at most MAX_PROBLEM_ITEMS, so that the answer
 * stays small and building it stays linear however many errors there were.
 */
export function validationItems(
  errors: readonly SchemaError[],
  part = 'body',
): ProblemDetailItem[] {
  const seen = new Set<string>()
  const items: ProblemDetailItem[] = []
  for (const item of sentencesOf(errors, part)) {
    const key = `${item.path}\u0000${item.message}`
    if (seen.has(key)) continue
    seen.add(key)
    items.push(item)
    if (items.length === MAX_PROBLEM_ITEMS) break
  }
  return items
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
  if (e.validation) {
    const part = e.validationContext ?? ''
    return invalidPart(part, validationItems(e.validation, part))
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ProblemError('payload_too_large', 'The request body is larger than the limit.')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ProblemError('unsupported_media_type', 'Request bodies must be application/json.')
  }
  if (isConnectionFailure(e)) return databaseUnavailable()
  const pressure = databasePressure(e)
  if (pressure) {
    const { message, retryAfter } = PRESSURE_ANSWERS[pressure]
    return new ProblemError('service_unavailable', message, {
      headers: { 'retry-after': String(retryAfter) },
    })
  }
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
