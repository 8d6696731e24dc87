import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isConnectionFailure } from '../db/connection-failure.ts'
import { type ProblemDetailItem, ProblemError } from './problem-catalogue.ts'
import { sendProblem } from './problem-response.ts'

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
  const e = error as Partial<FastifyError> & { validationContext?: string; validation?: AjvError[] }
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

// Framework messages about malformed requests are safe to show; keep them short.
function safeMessage(message: string | undefined): string {
  return (message ?? 'The request is malformed.').slice(0, 300)
}

/** A 404 answered otherwise than in problem+json (the dashboard's page): true once it is sent. */
export type PageNotFound = (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>

/**
 * Installs the error handler and the 404/405 handler on the root instance. `pageNotFound` may
 * answer a 404 first (a browser's unknown page); the API's paths stay problem+json.
 */
export function installErrorHandling(app: FastifyInstance, pageNotFound?: PageNotFound): void {
  const routes: { methods: string[]; pattern: RegExp }[] = []
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    routes.push({ methods, pattern: routePattern(route.url) })
  })

  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const problem = toProblem(error)
    if (problem.status >= 500) request.log.error({ err: error }, 'request failed')
    return sendProblem(request, reply, problem)
  })

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/'
    const allowed = [
      ...new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods)),
    ]
    if (allowed.length > 0) {
      return sendProblem(
        request,
        reply,
        new ProblemError(
          'method_not_allowed',
          `${request.method} is not allowed here; use ${allowed.join(', ')}.`,
          { headers: { allow: allowed.join(', ') } },
        ),
      )
    }
    if (pageNotFound && (await pageNotFound(request, reply))) return reply
    return sendProblem(
      request,
      reply,
      new ProblemError('not_found', `There is no route ${request.method} ${path}.`),
    )
  })
}

/** Problems for errors Fastify raises before routing (a malformed URL, for one). */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  void sendProblem(request, reply, new ProblemError('invalid_request', safeMessage(error.message)))
}

// A parameter matches one segment; one with a regex (`:id(^wsp_[0-9a-z]+$)`) only what that allows.
function paramPattern(segment: string): string {
  const regex = /^:[^(]*\((.*)\)$/.exec(segment)?.[1]
  return regex ? `(?:${regex.replace(/^\^/, '').replace(/\$$/, '')})` : '[^/]+'
}

function routePattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) =>
      segment.startsWith(':')
        ? paramPattern(segment)
        : segment === '*'
          ? '.*'
          : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/')
  return new RegExp(`^${source}/?$`)
}
