import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { readScopesByKind } from '../access/scopes.ts'
import { authenticated } from '../api/authenticated.ts'
import { notFound } from '../api/problem-catalogue.ts'
import { IdParams } from '../api/schemas.ts'
import { sendJsonText } from '../api/send-json-text.ts'
import type { AppDeps } from '../app-deps.ts'
import { summarizeResource } from './run-summary.ts'
import { DEFAULT_SUMMARY_TOKENS, SummaryOrCompact, SummaryQuery } from './summary.schemas.ts'

/**
 * `GET /v1/resources/:id/summary`: a compact, deterministic digest of any resource, sized for an
 * LLM's context window (`summarizeResource` does the work; this only adapts HTTP to it).
 */
export function summaryRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const scopes = readScopesByKind()
    app.get(
      '/v1/resources/:id/summary',
      {
        schema: {
          operationId: 'getResourceSummary',
          summary: 'Summarize any resource within a token budget',
          tags: ['resources'],
          params: IdParams,
          querystring: SummaryQuery,
          response: { 200: SummaryOrCompact },
        },
        config: { scopes },
      },
      async (request, reply) => {
        const maxTokens = request.query.max_tokens ?? DEFAULT_SUMMARY_TOKENS
        const summary = await summarizeResource(
          deps,
          authenticated(request),
          request.params.id,
          maxTokens,
          request.query.format ?? 'full',
        )
        if (!summary) throw notFound()
        return sendJsonText(reply, summary.text)
      },
    )
  }
}
