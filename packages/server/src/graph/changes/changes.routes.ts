import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { readScopeOf } from '../../access/scopes.ts'
import { authenticated } from '../../api/authenticated.ts'
import type { ChangeFeed } from './change-feed.ts'
import { presentChange } from './changes.present.ts'
import { CHANGE_KINDS, ChangePage, ListChangesQuery } from './changes.schemas.ts'
import { parseEventTypes } from './event-types.ts'

/**
 * `GET /v1/changes`: the change feed (docs/changes.md), oldest first from an opaque cursor, each
 * change shown only if its resource is open to the caller now, with an optional long poll.
 */
export function changeRoutes(feed: ChangeFeed): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/changes',
      {
        schema: {
          operationId: 'listChanges',
          summary: 'Follow the change feed, oldest first',
          tags: ['changes'],
          querystring: ListChangesQuery,
          response: { 200: ChangePage },
        },
        config: {
          scopes: { anyOf: [...new Set(CHANGE_KINDS.map(readScopeOf))] },
        },
      },
      async (request, reply) => {
        const { query } = request
        const gone = new AbortController()
        reply.raw.once('close', () => gone.abort())
        const page = await feed.read(
          authenticated(request),
          {
            cursor: query.cursor,
            from: query.from,
            events: parseEventTypes(query.types),
            project_id: query.project_id,
            limit: query.limit ?? 50,
            wait: query.wait ?? 0,
          },
          { signal: gone.signal, reauthenticate: () => request.authenticateAgain() },
        )
        return { data: page.rows.map(presentChange), next_cursor: page.next_cursor }
      },
    )
  }
}
