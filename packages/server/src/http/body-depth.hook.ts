import type { FastifyInstance } from 'fastify'
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../lib/json-depth.ts'
import { ProblemError } from './problem-catalogue.ts'

/**
 * One limit for every JSON body (under /v1 and on /mcp alike): a body that nests more than
 * MAX_JSON_DEPTH levels is a 422 before any validator, handler or serializer walks it, so that
 * none of them can run out of stack on it.
 */
export function installBodyDepthLimit(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.body === null || typeof request.body !== 'object') return
    if (!nestsDeeperThan(request.body)) return
    throw new ProblemError('validation_failed', 'The body is invalid.', {
      errors: [{ path: '', message: `nests more than ${MAX_JSON_DEPTH} levels deep` }],
    })
  })
}
