import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Caller } from '../../access/caller.ts'
import { readScopeOf } from '../../access/scopes.ts'
import { authenticated } from '../../api/authenticated.ts'
import { ProblemError } from '../../api/problem-catalogue.ts'
import { requireVisible } from '../../api/require-visible.ts'
import type { AppDeps } from '../../app-deps.ts'
import { Turns } from '../../lib/turns.ts'
import { numberCommittedChanges } from '../../writes/change-positions.ts'
import { decodeChangeCursor, encodeChangeCursor } from './change-cursor.ts'
import { retentionCutoff } from './change-retention.ts'
import { ChangeWakeups } from './change-wakeups.ts'
import { presentChange } from './changes.present.ts'
import { headPosition } from './changes.queries.ts'
import { CHANGE_KINDS, ChangePage, ListChangesQuery } from './changes.schemas.ts'
import { parseEventTypes } from './event-types.ts'
import { FeedHeads } from './feed-heads.ts'
import { type FeedReader, type FeedWatch, readChanges } from './read-changes.ts'

// Feed reads of this process at once; the rest queue. Polls woken by one commit all read at
// once otherwise, and hold every database connection while writes wait for one.
const FEED_READS_AT_ONCE = 2

/**
 * `GET /v1/changes`: the change feed (docs/changes.md), oldest first from an opaque cursor, each
 * change shown only if its resource is open to the caller now, with an optional long poll.
 */
export function changeRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const heads = new FeedHeads()
    const wakeups = new ChangeWakeups(deps, heads, (error) =>
      app.log.warn({ err: error }, 'change feed wake-ups: a look or the listener failed'),
    )
    const watch: FeedWatch = {
      heads,
      turns: new Turns(FEED_READS_AT_ONCE),
      hearing: () => wakeups.hearing,
    }
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
          scopes: { anyOf: [...new Set(CHANGE_KINDS.map(readScopeOf))] },
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
        if (query.cursor === undefined && query.from === undefined) {
          // Positions first: the head counts every committed change.
          await numberCommittedChanges(deps.db, ws)
          return { data: [], next_cursor: cursorAt(await headPosition(deps.db, ws)) }
        }
        let from: number | 'start' = 'start'
        if (query.cursor !== undefined) from = decodeChangeCursor(deps.cursors, scope, query.cursor)
        const gone = new AbortController()
        reply.raw.once('close', () => gone.abort())
        const wait = query.wait ?? 0
        if (wait > 0) wakeups.start()
        const readerOf = (caller: Caller): FeedReader => ({
          visibility: caller.visibility,
          filters: {
            resourceTypes: CHANGE_KINDS.filter((t) => caller.readableKinds.includes(t)),
            events,
            project_id: query.project_id,
          },
        })
        const read = await readChanges(deps, watch, readerOf(caller), from, {
          limit: query.limit ?? 50,
          retainedSince: retentionCutoff(deps.clock.now()),
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
