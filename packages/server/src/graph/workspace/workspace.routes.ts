import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authenticated } from '../../api/authenticated.ts'
import type { AppDeps } from '../../app-deps.ts'
import { presentWorkspace } from './workspace.present.ts'
import { findWorkspace } from './workspace.queries.ts'
import { WorkspaceRecord } from './workspace.schemas.ts'

/** `GET /v1/workspace`: the workspace of the token. */
export function workspaceRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/workspace',
      {
        schema: {
          operationId: 'getWorkspace',
          summary: 'Get the workspace of the token',
          tags: ['workspace'],
          response: { 200: WorkspaceRecord },
        },
        config: { scopes: ['workspace:read'] },
      },
      async (request) => {
        const { workspace, memberCount } = await findWorkspace(
          deps.db,
          authenticated(request).visibility,
        )
        return presentWorkspace(workspace, memberCount, deps.urls)
      },
    )
  }
}
