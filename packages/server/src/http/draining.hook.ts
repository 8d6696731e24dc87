import type { FastifyInstance } from 'fastify'
import { ProblemError } from '../api/problem-catalogue.ts'

/**
 * While the server drains on shutdown, requests that still arrive (on connections kept alive
 * from before) are answered 503 in problem+json with Retry-After, like every other refusal,
 * instead of Fastify's own plain JSON; the load balancer's next try goes to another instance.
 * /healthz still answers: the process is alive until it exits.
 */
export function installDrainingRefusal(
  app: FastifyInstance,
  lifecycle: { readonly draining: boolean },
): void {
  app.addHook('onRequest', async (request) => {
    if (!lifecycle.draining || request.url === '/healthz') return
    throw new ProblemError('service_unavailable', 'The server is shutting down; retry shortly.', {
      headers: { 'retry-after': '1' },
    })
  })
}
