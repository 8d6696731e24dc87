import type { FastifyInstance } from 'fastify'
import { canAdminister } from '../access/administration.ts'
import { bindingOf, cutPage, readCursor } from '../api/paging.ts'
import type { AppDeps } from '../app-deps.ts'
import { presentAuditEntry } from '../audit/audit.present.ts'
import type { AuditFilters } from '../audit/audit.queries.ts'
import { ListAuditQuery } from '../audit/audit.schemas.ts'
import { auditPosition, readAuditEntries } from '../audit/audit-entries.ts'
import { type AuditFilterValues, auditNames } from './audit-names.ts'
import { auditHref, auditPage } from './audit-page.view.ts'
import { forbiddenPage } from './forbidden.view.ts'
import { checkedInput, formProblem, utcInstant } from './form-problems.ts'
import { sendPage } from './page-headers.ts'
import { SIGNED_IN_PAGE, type WebContext } from './web-context.ts'

const PAGE_SIZE = 25
const FILTERS = ['token_id', 'actor_id', 'action', 'resource_id', 'since', 'until'] as const

/**
 * `/audit`: the audit log page, for owners and admins like `GET /v1/audit` (others get a 403
 * page). The same query, cursor and presenter as the API, so it shows exactly the redaction the
 * API applies for this reader.
 */
export function auditPageRoutes(deps: AppDeps) {
  return async (app: FastifyInstance) => {
    app.get('/audit', SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      if (!canAdminister(web.caller.principal))
        return sendPage(
          reply,
          403,
          forbiddenPage(web, 'The audit log is for workspace owners and admins.'),
        )
      const query = request.query as Record<string, string | string[] | undefined>
      const filters: AuditFilterValues = {}
      for (const name of FILTERS) {
        const value = [query[name]].flat()[0]?.trim()
        if (value) filters[name] = name === 'since' || name === 'until' ? utcInstant(value) : value
      }
      const cursor = [query.cursor].flat()[0] || undefined
      try {
        const checked = checkedInput<AuditFilters>(ListAuditQuery, filters)
        // Cursors are bound to the session and the filters, like the API's to a token.
        const binding = bindingOf(web.caller.credential.id, 'web:/audit', {}, { ...filters })
        const after = readCursor(deps.cursors, cursor, binding)
        const rows = await readAuditEntries(deps.db, web.caller, checked, after, PAGE_SIZE)
        const page = cutPage(rows, PAGE_SIZE, auditPosition, deps.cursors, binding, (entry) =>
          presentAuditEntry(entry.row, entry.open),
        )
        const next = page.next_cursor ? auditHref({ ...filters, cursor: page.next_cursor }) : null
        const names = await auditNames(deps, web, page.data, filters)
        return sendPage(reply, 200, auditPage(web, { filters, entries: page.data, next, names }))
      } catch (error) {
        const problem = formProblem(error)
        if (!problem) throw error
        const names = await auditNames(deps, web, [], filters)
        const body = auditPage(web, { filters, entries: [], next: null, problem, names })
        return sendPage(reply, problem.status, body)
      }
    })
  }
}
