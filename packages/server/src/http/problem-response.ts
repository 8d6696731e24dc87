import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { problemBody } from '../api/problem-body.ts'
import type { ProblemError } from '../api/problem-catalogue.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** PUBLIC_URL: the problems' `type` URIs are pages under it. */
    problemTypeBase: string
  }
}

/** Gives the app the public URL its problems' `type` URIs start with. */
export function installProblemTypes(app: FastifyInstance, publicUrl: string): void {
  app.decorate('problemTypeBase', publicUrl)
}

/** Sends a problem as `application/problem+json`, with its headers. */
export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  problem: ProblemError,
): FastifyReply {
  for (const [name, value] of Object.entries(problem.extras.headers ?? {}))
    reply.header(name, value)
  // Serialize here: route response schemas describe successes, not problems.
  return reply
    .status(problem.status)
    .type('application/problem+json; charset=utf-8')
    .serializer((payload: unknown) => JSON.stringify(payload))
    .send(problemBody(problem, request.id, request.server.problemTypeBase))
}
