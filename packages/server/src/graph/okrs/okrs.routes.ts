import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authenticated } from '../../api/authenticated.ts'
import { listResponse } from '../../api/list-response.ts'
import { requireVisible } from '../../api/require-visible.ts'
import { Page } from '../../api/schemas.ts'
import type { AppDeps } from '../../app-deps.ts'
import { createdPosition } from '../../db/keyset.ts'
import { httpWrite } from '../../writes/http-write.ts'
import { IdempotencyHeaders } from '../../writes/write-schemas.ts'
import { createCheckin } from './checkins.commands.ts'
import { CheckinCreated, CreateCheckinBody } from './okr-parts.schemas.ts'
import { presentOkr } from './okrs.present.ts'
import { listOkrs } from './okrs.queries.ts'
import { ListOkrsQuery, OkrRecord } from './okrs.schemas.ts'

/** `GET /v1/okrs` (objectives the caller may open, with key results) and logging check-ins. */
export function okrRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/okrs',
      {
        schema: {
          operationId: 'listOkrs',
          summary: 'List OKRs',
          tags: ['okrs'],
          querystring: ListOkrsQuery,
          response: { 200: Page(OkrRecord) },
        },
        config: { scopes: ['okr:read'] },
      },
      async (request) => {
        const { visibility } = authenticated(request)
        const { query } = request
        await requireVisible(deps.db, visibility, [
          ['/project_id', 'project', query.project_id],
          ['/team_id', 'team', query.team_id],
        ])
        return listResponse(deps.cursors, request, query, {
          load: (after, limit) => listOkrs(deps.db, visibility, query, after, limit),
          position: createdPosition,
          present: (row) => presentOkr(row, deps.urls, deps.clock.now()),
        })
      },
    )

    app.post(
      '/v1/okr/checkins',
      {
        schema: {
          operationId: 'createCheckin',
          summary: 'Log a check-in on a key result',
          description:
            "Sets the key result's current value and recomputes its objective's progress; answers with both.",
          tags: ['okrs'],
          headers: IdempotencyHeaders,
          body: CreateCheckinBody,
          response: { 201: CheckinCreated },
        },
        config: { scopes: ['okr:checkin'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 201,
          body: await createCheckin(w, request.body),
        })),
    )
  }
}
