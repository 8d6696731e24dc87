import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ProblemError } from '../api/problem-catalogue.ts'
import { safeMessage, toProblem } from '../api/problems.ts'
import { sendProblem } from './problem-response.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route may answer as a path that does not exist (`reply.callNotFound()`: the first-run
     * page once it is closed), so it never makes another method's answer a 405 that names it.
     */
    hiddenPath?: boolean
  }
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
    if (route.config?.hiddenPath) return
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
