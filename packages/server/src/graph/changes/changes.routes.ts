import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Caller } from '../../access/caller.ts'
import { READ_SCOPE_OF_TYPE } from '../../access/scopes.ts'
import type { AppDeps } from '../../app-deps.ts'
import { authenticated } from '../../http/authentication.ts'
import { ProblemError } from '../../http/problem-catalogue.ts'
import { requireVisible } from '../../http/require-visible.ts'
import { numberCommittedChanges } from '../../writes/change-positions.ts'
import { decodeChangeCursor, encodeChangeCursor } from './change-cursor.ts'
import { cursorExpired, retentionCutoff } from './change-retention.ts'
import { ChangeWakeups } from './change-wakeups.ts'
import { presentChange } from './changes.present.ts'
import { headPosition, horizonPosition } from './changes.queries.ts'
import { CHANGE_RESOURCE_TYPES, ChangePage, ListChangesQuery } from './changes.schemas.ts'
import { parseEventTypes } from './event-types.ts'
import { type FeedReader, readChanges } from './read-changes.ts'

/**
 * `GET /v1/changes`: the change feed (docs/changes.md), oldest first from an opaque cursor, each
 * change shown only if its resource is open to the caller now, with an optional long poll.
 */
export function changeRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const wakeups = new ChangeWakeups(deps)
    // Long polls end when the app closes, rather than holding its shutdown for up to 30 s.
    const closing = new AbortController()
    app.addHook('preClose', async () => closing.abort())
    app.addHook('onClose', () => wakeups.close())
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
          scopes: { anyOf: [...new Set(CHANGE_RESOURCE_TYPES.map((t) => READ_SCOPE_OF_TYPE[t]))] },
        },
      },
      async (request, reply) => {
        const caller = authenticated(request)
        const { visibility, principal } = caller
        const { query } = request
        const events = parseEventTypes(query.types)
        if (query.cursor !== undefined && query.from !== undefined)
          throw new ProblemError('validation_failed', 'The query string is invalid.', {
            errors: [{ path: '/from', message: 'cannot be combined with cursor' }],
          })
        await requireVisible(deps.db, visibility, [['/project_id', 'project', query.project_id]])
        const scope = { principal, types: events, project_id: query.project_id }
        const cursorAt = (position: number) => encodeChangeCursor(deps.cursors, scope, position)
        const ws = principal.workspaceId
        // Positions first: the head and the horizon below count every committed change.
        await numberCommittedChanges(deps.db, ws)
        if (query.cursor === undefined && query.from === undefined)
          return { data: [], next_cursor: cursorAt(await headPosition(deps.db, ws)) }
        const horizon = await horizonPosition(deps.db, ws, retentionCutoff(deps.clock.now()))
        let after = horizon
        if (query.cursor !== undefined) {
          after = decodeChangeCursor(deps.cursors, scope, query.cursor)
          if (after < horizon) throw cursorExpired()
        }
        const gone = new AbortController()
        reply.raw.once('close', () => gone.abort())
        const wait = query.wait ?? 0
        if (wait > 0)
          wakeups.listen((error) =>
            request.log.warn({ err: error }, 'change feed listener lost its connection'),
          )
        const readerOf = (caller: Caller): FeedReader => ({
          visibility: caller.visibility,
          filters: {
            resourceTypes: CHANGE_RESOURCE_TYPES.filter((t) => caller.readableTypes.includes(t)),
            events,
            project_id: query.project_id,
          },
        })
        const read = await readChanges(deps, readerOf(caller), after, {
          limit: query.limit ?? 50,
          waitMs: wait * 1000,
          signal: AbortSignal.any([gone.signal, closing.signal]),
          // A poll that waited reads as a request made now would: its credential may have ended
          // (a 401, and nothing made after) or its access changed while it waited.
          awake: async () => readerOf(await request.authenticateAgain()),
        })
        return { data: read.rows.map(presentChange), next_cursor: cursorAt(read.position) }
      },
    )
  }
}
