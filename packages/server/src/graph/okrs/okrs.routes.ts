import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppDeps } from '../../app-deps.ts'
import { authenticated } from '../../http/authentication.ts'
import { listResponse } from '../../http/list-response.ts'
import { requireVisible } from '../../http/require-visible.ts'
import { Page } from '../../http/schemas.ts'
import { createdPosition } from '../keyset.ts'
import { presentOkr } from './okrs.present.ts'
import { listOkrs } from './okrs.queries.ts'
import { ListOkrsQuery, OkrRecord } from './okrs.schemas.ts'

/** `GET /v1/okrs`: objectives the caller may open with their key results, newest first. */
export function okrRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/okrs',
      {
        schema: {
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
        return listResponse(deps, request, query, {
          load: (after, limit) => listOkrs(deps.db, visibility, query, after, limit),
          position: createdPosition,
          present: (row) => presentOkr(row, deps.urls),
        })
      },
    )
  }
}
