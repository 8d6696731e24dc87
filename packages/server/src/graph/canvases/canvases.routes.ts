import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppDeps } from '../../app-deps.ts'
import { authenticated } from '../../http/authentication.ts'
import { listResponse } from '../../http/list-response.ts'
import { requireVisible } from '../../http/require-visible.ts'
import { Page } from '../../http/schemas.ts'
import { createdPosition } from '../keyset.ts'
import { presentCanvas } from './canvases.present.ts'
import { listCanvases } from './canvases.queries.ts'
import { CanvasRecord, ListCanvasesQuery } from './canvases.schemas.ts'

/** `GET /v1/canvases`: canvases the caller may open, newest first. */
export function canvasRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/canvases',
      {
        schema: {
          summary: 'List canvases',
          tags: ['canvases'],
          querystring: ListCanvasesQuery,
          response: { 200: Page(CanvasRecord) },
        },
        config: { scopes: ['canvas:read'] },
      },
      async (request) => {
        const { visibility, readableTypes } = authenticated(request)
        const { query } = request
        await requireVisible(deps.db, visibility, [['/project_id', 'project', query.project_id]])
        return listResponse(deps, request, query, {
          load: (after, limit) =>
            listCanvases(deps.db, visibility, readableTypes, query, after, limit),
          position: createdPosition,
          present: (row) => presentCanvas(row, deps.urls),
        })
      },
    )
  }
}
