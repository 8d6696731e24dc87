import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { canAdminister } from '../access/administration.ts'
import { authenticated } from '../api/authenticated.ts'
import { listResponse } from '../api/list-response.ts'
import { ProblemError } from '../api/problem-catalogue.ts'
import { Page } from '../api/schemas.ts'
import type { AppDeps } from '../app-deps.ts'
import { presentAuditEntry } from './audit.present.ts'
import { AuditRecord, ListAuditQuery } from './audit.schemas.ts'
import { auditPosition, readAuditEntries } from './audit-entries.ts'

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
          operationId: 'listAuditEntries',
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
        return listResponse(deps.cursors, request, query, {
          load: (after, limit) => readAuditEntries(deps.db, caller, query, after, limit),
          position: auditPosition,
          present: ({ row, open }) => presentAuditEntry(row, open),
        })
      },
    )
  }
}
