import type { FastifyInstance } from 'fastify'
import { ProblemError } from '../api/problem-catalogue.ts'
import { countHeader } from './raw-headers.ts'

/**
 * Refuses a request with more than one Authorization header. Node keeps the first and drops the
 * rest without a word, while a proxy in front may have looked at another: which credential a
 * request carries must never be ambiguous. Runs in onRequest, before authentication.
 */
export function installSingleAuthorization(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (countHeader(request.raw.rawHeaders, 'authorization') > 1) {
      throw new ProblemError(
        'invalid_request',
        'Send one Authorization header; this request has more than one.',
      )
    }
  })
}
