import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppDeps } from '../../app-deps.ts'
import { authenticated } from '../../http/authentication.ts'
import { listResponse } from '../../http/list-response.ts'
import { requireVisible } from '../../http/require-visible.ts'
import { Page } from '../../http/schemas.ts'
import { createdPosition } from '../keyset.ts'
import { presentTask } from './tasks.present.ts'
import { listTasks } from './tasks.queries.ts'
import { ListTasksQuery, TaskRecord } from './tasks.schemas.ts'

/** `GET /v1/tasks`: tasks the caller may open, newest first. */
export function taskRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/tasks',
      {
        schema: {
          summary: 'List tasks',
          tags: ['tasks'],
          querystring: ListTasksQuery,
          response: { 200: Page(TaskRecord) },
        },
        config: { scopes: ['task:read'] },
      },
      async (request) => {
        const { visibility } = authenticated(request)
        const { query } = request
        await requireVisible(deps.db, visibility, [
          ['/project_id', 'project', query.project_id],
          ['/assignee_id', 'person', query.assignee_id],
        ])
        return listResponse(deps, request, query, {
          load: (after, limit) => listTasks(deps.db, visibility, query, after, limit),
          position: createdPosition,
          present: (row) => presentTask(row, deps.urls),
        })
      },
    )
  }
}
