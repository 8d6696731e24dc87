import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { canAdminister } from '../access/administration.ts'
import { openInAudit } from '../access/audit-visibility.ts'
import type { AppDeps } from '../app-deps.ts'
import { authenticated } from '../http/authentication.ts'
import { listResponse } from '../http/list-response.ts'
import { ProblemError } from '../http/problem-catalogue.ts'
import { Page } from '../http/schemas.ts'
import { idsShownBy, presentAuditEntry } from './audit.present.ts'
import { listAudit } from './audit.queries.ts'
import { AuditRecord, ListAuditQuery } from './audit.schemas.ts'

/**
 * `GET /v1/audit`: the workspace's audit log, for owners and admins (scope `audit:read`). Every
 * entry is listed; what it shows of its resource depends on whether the reader may open it now.
 */
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
        const caller = authenticated(request)
        if (!canAdminister(caller.principal)) {
          throw new ProblemError('forbidden', 'The audit log is for workspace owners and admins.')
        }
        const { query } = request
        // A resource the reader may not open is filtered on like one that does not exist.
        const hidden =
          query.resource_id !== undefined &&
          !(await openInAudit(deps.db, caller, [query.resource_id])).has(query.resource_id)
        return listResponse(deps.cursors, request, query, {
          load: async (after, limit) => {
            if (hidden) return []
            const rows = await listAudit(deps.db, caller.principal.workspaceId, query, after, limit)
            const open = await openInAudit(deps.db, caller, idsShownBy(rows))
            return rows.map((row) => ({ row, open }))
          },
          position: ({ row }) => [row.created_at.toISOString(), row.id],
          present: ({ row, open }) => presentAuditEntry(row, open),
        })
      },
    )
  }
}
