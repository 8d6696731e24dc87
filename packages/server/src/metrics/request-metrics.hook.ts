import type { FastifyInstance } from 'fastify'
import type { Metrics } from './metrics.ts'

/**
 * Counts and times every answered request by its method, route pattern and status: the pattern
 * (`/v1/resources/:id`), never the path, so no id reaches a label and the series stay few.
 * Requests no route matched are `unmatched`.
 */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched'
    const method = request.method
    metrics.requests.inc({ method, route, status: String(reply.statusCode) })
    metrics.requestSeconds.observe({ method, route }, reply.elapsedTime / 1000)
  })
}
