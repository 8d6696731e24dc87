import type { FastifyReply, FastifyRequest } from 'fastify'
import { problemBody } from '../api/problem-body.ts'
import type { ProblemError } from '../api/problem-catalogue.ts'

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
    .send(problemBody(problem, request.id))
}
