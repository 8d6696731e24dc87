import type { Caller } from '../../access/caller.ts'
import { showChangedPeople } from '../../activity/changed-people.ts'
import { ProblemError } from '../../api/problem-catalogue.ts'
import { requireVisible } from '../../api/require-visible.ts'
import type { AppDeps } from '../../app-deps.ts'
import type { ActivityVerb } from '../../catalogue/verbs.ts'
import { Turns } from '../../lib/turns.ts'
import { numberCommittedChanges } from '../../writes/change-positions.ts'
import { decodeChangeCursor, encodeChangeCursor } from './change-cursor.ts'
import { retentionCutoff } from './change-retention.ts'
import { ChangeWakeups } from './change-wakeups.ts'
import { type ChangeRow, headPosition } from './changes.queries.ts'
import { CHANGE_KINDS } from './changes.schemas.ts'
import { FeedFollowers } from './feed-followers.ts'
import { FeedHeads } from './feed-heads.ts'
import { type FeedReader, type FeedWatch, readChanges } from './read-changes.ts'

// Feed reads of this process at once; the rest queue. Polls woken by one commit all read at
// once otherwise, and hold every database connection while writes wait for one.
const FEED_READS_AT_ONCE = 2

/** What one read of the feed asks for (docs/changes.md). */
export interface FeedQuery {
  cursor?: string | undefined
  /** Without a cursor: `start` reads from the oldest retained change; else the feed starts now. */
  from?: 'start' | undefined
  /** Only these events (none: all). */
  events: readonly ActivityVerb[]
  project_id?: string | undefined
  limit: number
  /** Seconds to wait for a change when there is none yet. */
  wait: number
}

/** A page of the feed: the changes shown and the cursor after them (never null). */
export interface FeedPage {
  rows: ChangeRow[]
  next_cursor: string
  /** The cursor right after one of the rows: where a reader shown only part of them resumes. */
  cursorAfter(row: ChangeRow): string
  /**
   * The caller the rows were read as: after a wait, as a request made then would be. Whatever
   * describes the rows (names, projects) reads as this caller, not as the one before the wait.
   */
  reader: Caller
}

/** How a read learns that its asker went away, and re-reads its credential after a wait. */
export interface FeedAsker {
  /** Aborted when the asker goes away: a wait ends. */
  signal: AbortSignal
  /** The caller as a request made now would be (a credential ended meanwhile throws its 401). */
  reauthenticate: () => Promise<Caller>
  /** Whether what was sent to the asker waits unread (its connection's buffer is full). */
  congested?: () => boolean
}

/**
 * The change feed of one app, which `GET /v1/changes` and MCP's `changes` tool both read: the
 * heads, wake-ups and turns its long polls share, and the rules of a read (cursor, filters,
 * visibility at the time of reading).
 */
export class ChangeFeed {
  readonly #deps: AppDeps
  readonly #watch: FeedWatch
  readonly #wakeups: ChangeWakeups
  // Long polls end when the app closes, rather than holding its shutdown for up to 30 s.
  readonly #closing = new AbortController()
  /** Streams that follow a workspace's changes, served by one read of the feed per change. */
  readonly followers: FeedFollowers

  constructor(deps: AppDeps, onError: (error: unknown) => void) {
    const heads = new FeedHeads()
    this.#deps = deps
    this.#wakeups = new ChangeWakeups(deps, heads, onError)
    this.#watch = {
      heads,
      turns: new Turns(FEED_READS_AT_ONCE),
      hearing: () => this.#wakeups.hearing,
    }
    this.followers = new FeedFollowers(deps, {
      closing: this.#closing.signal,
      startWakeups: () => this.#wakeups.start(),
      onError,
    })
  }

  /** The cursor of the whole feed (no filters) at `position`, for this caller. */
  cursorOf(caller: Caller, position: number): string {
    const scope = { principal: caller.principal, types: [], project_id: undefined }
    return encodeChangeCursor(this.#deps.cursors, scope, position)
  }

  /**
   * A page of the changes after the query's cursor that the caller may see now. Without cursor
   * or `from`, the empty page of the feed's head: where following starts. A cursor is bound to
   * the caller and the filters it was made with.
   */
  async read(caller: Caller, query: FeedQuery, asker: FeedAsker): Promise<FeedPage> {
    const deps = this.#deps
    const { visibility, principal } = caller
    if (query.cursor !== undefined && query.from !== undefined)
      throw new ProblemError('validation_failed', 'The query string is invalid.', {
        errors: [{ path: '/from', message: 'cannot be combined with cursor' }],
      })
    await requireVisible(deps.db, visibility, [['/project_id', 'project', query.project_id]])
    const scope = { principal, types: [...query.events], project_id: query.project_id }
    const cursorAt = (position: number) => encodeChangeCursor(deps.cursors, scope, position)
    const ws = principal.workspaceId
    if (query.cursor === undefined && query.from === undefined) {
      // Positions first: the head counts every committed change.
      await numberCommittedChanges(deps.db, ws)
      const head = cursorAt(await headPosition(deps.db, ws))
      return { rows: [], next_cursor: head, cursorAfter: () => head, reader: caller }
    }
    let from: number | 'start' = 'start'
    if (query.cursor !== undefined) from = decodeChangeCursor(deps.cursors, scope, query.cursor)
    if (query.wait > 0) this.#wakeups.start()
    const readerOf = (caller: Caller): FeedReader => ({
      visibility: caller.visibility,
      filters: {
        resourceTypes: CHANGE_KINDS.filter((t) => caller.readableKinds.includes(t)),
        events: query.events,
        project_id: query.project_id,
      },
    })
    let reader = caller
    const read = await readChanges(deps, this.#watch, readerOf(caller), from, {
      limit: query.limit,
      retainedSince: retentionCutoff(deps.clock.now()),
      waitMs: query.wait * 1000,
      signal: AbortSignal.any([asker.signal, this.#closing.signal]),
      // A poll that waited reads as a request made now would: its credential may have ended
      // (a 401, and nothing made after) or its access changed while it waited.
      awake: async () => {
        reader = await asker.reauthenticate()
        return readerOf(reader)
      },
    })
    return {
      // Read as the reader the rows were read as: access may have changed while it waited.
      rows: await showChangedPeople(deps.db, reader, read.rows),
      next_cursor: cursorAt(read.position),
      cursorAfter: (row) => cursorAt(row.position),
      reader,
    }
  }

  /** Ends every wait at once: the app is closing. */
  endWaits(): void {
    this.#closing.abort()
  }

  /** Stops listening for other processes' commits. */
  close(): Promise<void> {
    return this.#wakeups.close()
  }
}
