import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import type { AppDeps } from '../app-deps.ts'
import { checkReadiness } from './readiness.ts'

const Status = Type.Object({ status: Type.String() }, { title: 'HealthStatus' })

/** `GET /healthz` (the process is up) and `GET /readyz` (it can serve: health/readiness.ts). */
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
        await checkReadiness(deps)
        return { status: 'ready' }
      },
    )
  }
}
