import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { canAdminister } from '../access/administration.ts'
import type { AppDeps } from '../app-deps.ts'
import { authenticated } from '../http/authentication.ts'
import { listResponse } from '../http/list-response.ts'
import { ProblemError } from '../http/problem-catalogue.ts'
import { Page } from '../http/schemas.ts'
import { listAudit } from './audit.queries.ts'
import { AuditRecord, ListAuditQuery } from './audit.schemas.ts'

/** `GET /v1/audit`: the workspace's audit log, for owners and admins (scope `audit:read`). */
export function auditRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/audit',
      {
        schema: {
          summary: 'List audit entries, newest first',
          tags: ['audit'],
          querystring: ListAuditQuery,
          response: { 200: Page(AuditRecord) },
        },
        config: { scopes: ['audit:read'] },
      },
      async (request) => {
        const { principal } = authenticated(request)
        if (!canAdminister(principal)) {
          throw new ProblemError('forbidden', 'The audit log is for workspace owners and admins.')
        }
        return listResponse(deps.cursors, request, request.query, {
          load: (after, limit) =>
            listAudit(deps.db, principal.workspaceId, request.query, after, limit),
          position: (row) => [row.created_at.toISOString(), row.id],
          present: (row) => ({
            id: row.id,
            action: row.action,
            actor_id: row.actor_id,
            token_id: row.token_id,
            token_kind: row.token_kind,
            client_id: row.client_id,
            resource_id: row.resource_id,
            resource_type: row.resource_type,
            diff: row.diff,
            request_id: row.request_id,
            ip: row.ip,
            user_agent: row.user_agent,
            created_at: row.created_at.toISOString(),
          }),
        })
      },
    )
  }
}
