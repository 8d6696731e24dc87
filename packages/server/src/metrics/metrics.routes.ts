import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { ProblemError } from '../api/problem-catalogue.ts'
import type { Metrics } from './metrics.ts'

const BEARER = /^Bearer\s+(\S+)$/i

/**
 * `GET /metrics` in Prometheus's text format, for whoever presents `METRICS_TOKEN` as a bearer
 * token; without the setting there is no such route (docs/operations.md, "Metrics"). Its own
 * secret rather than an API key: a scraper is not a person of any workspace, and the figures are
 * the process's, across workspaces.
 */
export function metricsRoutes(metrics: Metrics, token: string | undefined) {
  return async (app: FastifyInstance) => {
    if (token === undefined) return
    const expected = digest(token)
    app.get(
      '/metrics',
      { config: { public: true }, schema: { hide: true } },
      async (request, reply) => {
        const presented = BEARER.exec(request.headers.authorization ?? '')?.[1]
        if (presented === undefined || !timingSafeEqual(digest(presented), expected))
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

// Equal-length digests, so the comparison takes the same time whatever was presented.
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}
