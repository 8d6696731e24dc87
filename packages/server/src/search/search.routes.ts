import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { readScopeOf } from '../access/scopes.ts'
import { authenticated } from '../api/authenticated.ts'
import { sendJsonText } from '../api/send-json-text.ts'
import type { AppDeps } from '../app-deps.ts'
import { runSearch } from './run-search.ts'
import { SEARCH_KINDS, SearchBody, SearchResponse } from './search.schemas.ts'

/**
 * `POST /v1/search`: the HTTP adapter of `runSearch` (ranked search of what the caller may open,
 * packed into a token budget). Without `types` it searches every kind the token may read; naming
 * a kind it may not read is a 403.
 */
export function searchRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/search',
      {
        schema: {
          operationId: 'search',
          summary: 'Search the graph',
          tags: ['search'],
          body: SearchBody,
          response: { 200: SearchResponse },
        },
        config: {
          scopes: { anyOf: [...new Set(SEARCH_KINDS.map(readScopeOf))] },
        },
      },
      async (request, reply) => {
        const text = await runSearch(deps, authenticated(request), request.body)
        // Sent as the very string whose tokens were counted.
        return sendJsonText(reply, text)
      },
    )
  }
}
