import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { readScopeOf } from '../access/scopes.ts'
import { authenticated } from '../api/authenticated.ts'
import { sendJsonText } from '../api/send-json-text.ts'
import type { AppDeps } from '../app-deps.ts'
import { DEFAULT_SUMMARY_TOKENS, SummaryOrCompact } from '../summaries/summary.schemas.ts'
import { AttentionQuery } from './attention.schemas.ts'
import { ATTENTION_KINDS } from './attention-focus.ts'
import { attentionFor, DEFAULT_ATTENTION_LIMIT, packAttention } from './run-attention.ts'

/**
 * `GET /v1/attention`: the HTTP adapter of `attentionFor` (what needs attention for a person, a
 * project, a team or the workspace, as a cited summary within a token budget).
 */
export function attentionRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/attention',
      {
        schema: {
          operationId: 'getAttention',
          summary:
            'What needs attention: overdue, blocked and due-soon tasks, OKRs behind, changes',
          tags: ['attention'],
          querystring: AttentionQuery,
          response: { 200: SummaryOrCompact },
        },
        config: { scopes: { anyOf: [...new Set(ATTENTION_KINDS.map(readScopeOf))] } },
      },
      async (request, reply) => {
        const { query } = request
        const attention = await attentionFor(deps, authenticated(request), {
          for: query.for,
          since: query.since,
          limit: query.limit ?? DEFAULT_ATTENTION_LIMIT,
        })
        const budget = query.max_tokens ?? DEFAULT_SUMMARY_TOKENS
        const answer = packAttention(attention, budget, query.format ?? 'full')
        // Sent as the very string whose tokens were counted.
        return sendJsonText(reply, answer.text)
      },
    )
  }
}
