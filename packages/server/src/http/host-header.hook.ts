import type { FastifyInstance } from 'fastify'
import { ProblemError } from '../api/problem-catalogue.ts'
import { countHeader } from './raw-headers.ts'

/**
 * An HTTP/1.1 request must carry exactly one Host header (RFC 9112 §3.2). Node would refuse a
 * missing one itself, with an empty 400; the app turns that check off (`requireHostHeader`) and
 * makes it here, so the answer is a problem like every other, and a second Host is refused too.
 */
export function installHostHeaderCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const raw = request.raw
    const hosts = countHeader(raw.rawHeaders, 'host')
    if (hosts > 1 || (hosts === 0 && raw.httpVersion === '1.1')) {
      throw new ProblemError(
        'invalid_request',
        'An HTTP/1.1 request must have exactly one Host header.',
        { headers: { connection: 'close' } },
      )
    }
  })
}
