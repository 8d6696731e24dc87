import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authenticated } from '../../api/authenticated.ts'
import { listResponse } from '../../api/list-response.ts'
import { requireVisible } from '../../api/require-visible.ts'
import { IdParams, Page } from '../../api/schemas.ts'
import type { AppDeps } from '../../app-deps.ts'
import { createdPosition } from '../../db/keyset.ts'
import { httpWrite } from '../../writes/http-write.ts'
import { IdempotencyHeaders } from '../../writes/write-schemas.ts'
import { createCanvas, updateCanvas } from './canvases.commands.ts'
import { presentCanvas } from './canvases.present.ts'
import { listCanvases } from './canvases.queries.ts'
import {
  CanvasRecord,
  CreateCanvasBody,
  ListCanvasesQuery,
  UpdateCanvasBody,
} from './canvases.schemas.ts'

/** `GET /v1/canvases` (canvases the caller may open, newest first), creating and editing them. */
export function canvasRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/canvases',
      {
        schema: {
          operationId: 'listCanvases',
          summary: 'List canvases',
          tags: ['canvases'],
          querystring: ListCanvasesQuery,
          response: { 200: Page(CanvasRecord) },
        },
        config: { scopes: ['canvas:read'] },
      },
      async (request) => {
        const { visibility, readableKinds } = authenticated(request)
        const { query } = request
        await requireVisible(deps.db, visibility, [['/project_id', 'project', query.project_id]])
        return listResponse(deps.cursors, request, query, {
          load: (after, limit) =>
            listCanvases(deps.db, visibility, readableKinds, query, after, limit),
          position: createdPosition,
          present: (row) => presentCanvas(row, deps.urls),
        })
      },
    )

    app.post(
      '/v1/canvases',
      {
        schema: {
          operationId: 'createCanvas',
          summary: 'Create a canvas (metadata)',
          tags: ['canvases'],
          headers: IdempotencyHeaders,
          body: CreateCanvasBody,
          response: { 201: CanvasRecord },
        },
        config: { scopes: ['canvas:create'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 201,
          body: await createCanvas(w, request.body),
        })),
    )

    app.patch(
      '/v1/canvases/:id',
      {
        schema: {
          operationId: 'updateCanvas',
          summary: "Change a canvas's title, summary or links",
          tags: ['canvases'],
          headers: IdempotencyHeaders,
          params: IdParams,
          body: UpdateCanvasBody,
          response: { 200: CanvasRecord },
        },
        config: { scopes: ['canvas:write'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 200,
          body: await updateCanvas(w, request.params.id, request.body),
        })),
    )
  }
}
