import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { READ_SCOPE_OF_TYPE } from '../access/scopes.ts'
import type { AppDeps } from '../app-deps.ts'
import { authenticated } from '../http/authentication.ts'
import { cursorBinding, readCursor } from '../http/paging.ts'
import { ProblemError } from '../http/problem-catalogue.ts'
import { sendJsonText } from '../http/send-json-text.ts'
import { packSearch } from './pack-search.ts'
import { presentHit } from './search.present.ts'
import { searchIndex } from './search.queries.ts'
import { SEARCH_TYPES, SearchBody, SearchResponse, type SearchType } from './search.schemas.ts'
import { normalizeQuery } from './search-query.ts'

/**
 * `POST /v1/search`: ranked full-text search over what the caller may open, packed into a token
 * budget. Without `types` it searches every kind the token may read; naming a kind it may not
 * read is a 403.
 */
export function searchRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/search',
      {
        schema: {
          summary: 'Search the graph',
          tags: ['search'],
          body: SearchBody,
          response: { 200: SearchResponse },
        },
        config: {
          scopes: { anyOf: [...new Set(SEARCH_TYPES.map((type) => READ_SCOPE_OF_TYPE[type]))] },
        },
      },
      async (request, reply) => {
        const { visibility, credential, readableTypes } = authenticated(request)
        const body = request.body
        const readable = SEARCH_TYPES.filter((type) =>
          credential.scopes.has(READ_SCOPE_OF_TYPE[type]),
        )
        const types: SearchType[] = body.types ?? readable
        const forbidden = types.filter((type) => !readable.includes(type))
        if (forbidden.length > 0) {
          const required = forbidden.map((type) => READ_SCOPE_OF_TYPE[type])
          throw new ProblemError(
            'insufficient_scope',
            `Searching ${forbidden.join(', ')} needs ${required.join(', ')}.`,
            { required_scopes: required },
          )
        }
        const limit = body.limit ?? 10
        const binding = cursorBinding(request, { query: body.query, types: [...types].sort() })
        const after = readCursor(deps.cursors, body.cursor, binding)
        const rows = await searchIndex(deps.db, visibility, {
          text: normalizeQuery(body.query),
          types,
          readableTypes,
          after,
          limit,
        })
        const page = rows.slice(0, limit)
        const ws = visibility.principal.workspaceId
        const hits = page.map((row) => presentHit(row, deps.urls.resource(ws, row.type, row.id)))
        const text = packSearch(hits, rows.length > limit, body.max_tokens ?? 2000, (index) => {
          const row = page[index] as (typeof page)[number]
          return deps.cursors.encode([row.rank, row.updated_at.toISOString(), row.id], binding)
        })
        // Sent as the very string whose tokens were counted.
        return sendJsonText(reply, text)
      },
    )
  }
}
