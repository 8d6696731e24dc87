import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppDeps } from '../app-deps.ts'

/** A kind's own `/v1` routes (its lists, its writes), registered by the app in catalogue order. */
export type KindRoutes = (deps: AppDeps) => FastifyPluginAsyncTypebox

declare module '../catalogue/kind.ts' {
  interface KindParts {
    /** Its own `/v1` routes. */
    routes: KindRoutes
  }
}
