import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authenticated } from '../../api/authenticated.ts'
import { listResponse } from '../../api/list-response.ts'
import { Page } from '../../api/schemas.ts'
import type { AppDeps } from '../../app-deps.ts'
import { createdPosition } from '../../db/keyset.ts'
import { presentProject } from './projects.present.ts'
import { listProjects } from './projects.queries.ts'
import { ListProjectsQuery, ProjectRecord } from './projects.schemas.ts'

/** `GET /v1/projects`: the projects the caller may open, newest first. */
export function projectRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/projects',
      {
        schema: {
          operationId: 'listProjects',
          summary: 'List projects',
          tags: ['projects'],
          querystring: ListProjectsQuery,
          response: { 200: Page(ProjectRecord) },
        },
        config: { scopes: ['project:read'] },
      },
      async (request) => {
        const { visibility } = authenticated(request)
        return listResponse(deps.cursors, request, request.query, {
          load: (after, limit) => listProjects(deps.db, visibility, request.query, after, limit),
          position: createdPosition,
          present: (row) => presentProject(row, deps.urls),
        })
      },
    )
  }
}
