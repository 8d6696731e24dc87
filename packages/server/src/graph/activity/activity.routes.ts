import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { canOpen } from '../../access/visibility.ts'
import { presentActivity } from '../../activity/activity.present.ts'
import {
  type ActivityFilters,
  activityReferences,
  listActivity,
} from '../../activity/activity.queries.ts'
import {
  ActivityRecord,
  ListActivityQuery,
  ProjectActivityQuery,
} from '../../activity/activity.schemas.ts'
import { authenticated } from '../../api/authenticated.ts'
import { listResponse } from '../../api/list-response.ts'
import { notFound } from '../../api/problem-catalogue.ts'
import { requireVisible } from '../../api/require-visible.ts'
import { IdParams, Page } from '../../api/schemas.ts'
import type { AppDeps } from '../../app-deps.ts'
import { createdPosition } from '../../db/keyset.ts'
import { idKind } from '../../lib/ids.ts'

/**
 * `GET /v1/activity` and `GET /v1/projects/:id/activity`: the stream, evaluated at read time. An
 * entry whose subject or any resource it mentions the caller cannot open now is left out whole.
 */
export function activityRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const respond = async (
      request: Parameters<typeof listResponse>[1],
      query: ActivityFilters & { limit?: number; cursor?: string },
    ) => {
      const { visibility, readableKinds } = authenticated(request)
      await requireVisible(deps.db, visibility, activityReferences(query))
      return listResponse(deps.cursors, request, query, {
        load: (after, limit) =>
          listActivity(deps.db, visibility, readableKinds, query, after, limit),
        position: createdPosition,
        present: (row) => presentActivity(row, deps.urls),
      })
    }
    app.get(
      '/v1/activity',
      {
        schema: {
          operationId: 'listActivity',
          summary: 'List activity, newest first',
          tags: ['activity'],
          querystring: ListActivityQuery,
          response: { 200: Page(ActivityRecord) },
        },
        config: { scopes: ['activity:read'] },
      },
      async (request) => respond(request, request.query),
    )
    app.get(
      '/v1/projects/:id/activity',
      {
        schema: {
          operationId: 'listProjectActivity',
          summary: "List a project's activity, newest first",
          tags: ['activity'],
          params: IdParams,
          querystring: ProjectActivityQuery,
          response: { 200: Page(ActivityRecord) },
        },
        config: { scopes: ['activity:read'] },
      },
      async (request) => {
        const { id } = request.params
        if (
          idKind(id) !== 'project' ||
          !(await canOpen(deps.db, authenticated(request).visibility, id))
        )
          throw notFound()
        return respond(request, { ...request.query, project_id: id })
      },
    )
  }
}
