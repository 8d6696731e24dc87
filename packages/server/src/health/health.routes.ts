import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { sql } from 'kysely'
import Type from 'typebox'
import { ProblemError } from '../api/problem-catalogue.ts'
import type { AppDeps } from '../app-deps.ts'

const Status = Type.Object({ status: Type.String() }, { title: 'HealthStatus' })

/** `GET /healthz` (the process is up) and `GET /readyz` (it can serve: database reachable, not draining). */
export function healthRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/healthz',
      {
        schema: {
          operationId: 'getLiveness',
          summary: 'Liveness',
          tags: ['health'],
          response: { 200: Status },
        },
        config: { public: true },
      },
      async () => ({ status: 'ok' }),
    )
    app.get(
      '/readyz',
      {
        schema: {
          operationId: 'getReadiness',
          summary: 'Readiness',
          tags: ['health'],
          response: { 200: Status },
        },
        config: { public: true },
      },
      async () => {
        if (deps.lifecycle.draining)
          throw new ProblemError('service_unavailable', 'The server is shutting down.')
        await sql`select 1`.execute(deps.db)
        return { status: 'ready' }
      },
    )
  }
}
