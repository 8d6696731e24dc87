import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { READ_SCOPE_OF_ID_KIND } from '../access/scopes.ts'
import type { AppDeps } from '../app-deps.ts'
import { authenticated } from '../http/authentication.ts'
import { notFound } from '../http/problem-catalogue.ts'
import { IdParams } from '../http/schemas.ts'
import { sendJsonText } from '../http/send-json-text.ts'
import { idKind } from '../lib/ids.ts'
import { packSummary } from './pack-summary.ts'
import { summarizeCanvas } from './summarize-canvas.ts'
import { summarizeActivity, summarizeComment, summarizeWorkspace } from './summarize-misc.ts'
import { summarizeCheckin, summarizeKeyResult, summarizeOkr } from './summarize-okr.ts'
import { summarizePerson, summarizeTeam } from './summarize-people.ts'
import { summarizeProject } from './summarize-project.ts'
import { type Summarized, summarizeTask } from './summarize-task.ts'
import { SummaryQuery, SummaryResponse } from './summary.schemas.ts'
import type { SummaryContext } from './summary-context.ts'

const SUMMARIZERS: Record<string, (ctx: SummaryContext, id: string) => Promise<Summarized | null>> =
  {
    workspace: summarizeWorkspace,
    person: summarizePerson,
    team: summarizeTeam,
    project: summarizeProject,
    canvas: summarizeCanvas,
    task: summarizeTask,
    objective: summarizeOkr,
    keyResult: summarizeKeyResult,
    checkin: summarizeCheckin,
    comment: summarizeComment,
    activity: summarizeActivity,
  }

const byIdKind = Object.fromEntries(
  Object.entries(READ_SCOPE_OF_ID_KIND).map(([kind, scope]) => [kind, [scope]]),
)

/**
 * `GET /v1/resources/:id/summary`: a compact, deterministic digest of any resource, sized for an
 * LLM's context window. Every statement cites its sources; every link, count and quote comes
 * from what the caller may open.
 */
export function summaryRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/resources/:id/summary',
      {
        schema: {
          summary: 'Summarize any resource within a token budget',
          tags: ['resources'],
          params: IdParams,
          querystring: SummaryQuery,
          response: { 200: SummaryResponse },
        },
        config: { scopes: { byIdKind } },
      },
      async (request, reply) => {
        const { visibility, readableTypes } = authenticated(request)
        const { id } = request.params
        const summarize = SUMMARIZERS[idKind(id) ?? '']
        const now = deps.clock.now()
        const ctx: SummaryContext = {
          db: deps.db,
          visibility,
          urls: deps.urls,
          today: now.toISOString().slice(0, 10),
          readableTypes,
        }
        const summary = summarize ? await summarize(ctx, id) : null
        if (!summary) throw notFound()
        const urls =
          summary.type === 'workspace'
            ? deps.urls.workspace(id)
            : deps.urls.resource(visibility.principal.workspaceId, summary.type, id)
        const text = packSummary(
          { id, type: summary.type, title: summary.title, url: urls.url, as_of: now.toISOString() },
          summary.builder,
          request.query.max_tokens ?? 1000,
        )
        return sendJsonText(reply, text)
      },
    )
  }
}
