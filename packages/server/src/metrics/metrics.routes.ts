import type { FastifyInstance } from 'fastify'
import { ProblemError } from '../api/problem-catalogue.ts'
import type { Metrics } from './metrics.ts'
import { metricsTokenCheck } from './metrics-token.ts'

/**
 * `GET /metrics` in Prometheus's text format, for whoever presents `METRICS_TOKEN` as a bearer
 * token; without the setting there is no such route (docs/operations.md, "Metrics"). Its own
 * secret rather than an API key: a scraper is not a person of any workspace, and the figures are
 * the process's, across workspaces.
 */
export function metricsRoutes(metrics: Metrics, token: string | undefined) {
  return async (app: FastifyInstance) => {
    if (token === undefined) return
    const presentsToken = metricsTokenCheck(token)
    app.get(
      '/metrics',
      { config: { public: true }, schema: { hide: true } },
      async (request, reply) => {
        if (!presentsToken(request.headers.authorization))
          throw new ProblemError('unauthenticated', 'Send METRICS_TOKEN as "Bearer <token>".', {
            headers: { 'www-authenticate': 'Bearer realm="metrics"' },
          })
        reply.header('content-type', metrics.registry.contentType)
        reply.header('cache-control', 'no-store')
        return metrics.registry.metrics()
      },
    )
  }
}
