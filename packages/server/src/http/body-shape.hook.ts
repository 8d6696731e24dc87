import type { FastifyInstance } from 'fastify'
import { ProblemError } from '../api/problem-catalogue.ts'
import { fieldName } from '../api/validation-messages.ts'
import { shapeBreach } from '../lib/json-shape.ts'

/**
 * One bound for every JSON body (under /v1 and on /mcp alike): a body that nests too deep, or
 * holds an object or array far larger than any the API takes (lib/json-shape.ts), is a 422
 * before any validator, handler or serializer walks it.
 */
export function installBodyShapeLimit(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.body === null || typeof request.body !== 'object') return
    const breach = shapeBreach(request.body)
    if (!breach) return
    // Said as a sentence that names the place, as validation problems are (docs/errors.md).
    const message = `${fieldName(breach.path)} ${breach.message}.`
    throw new ProblemError('validation_failed', 'The body is invalid.', {
      errors: [{ path: breach.path, message }],
    })
  })
}
