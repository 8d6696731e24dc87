import type { Visibility } from '../../access/visibility.ts'
import { ProblemError } from '../../api/problem-catalogue.ts'
import type { AppDeps } from '../../app-deps.ts'
import type { Turns } from '../../lib/turns.ts'
import { numberCommittedChanges } from '../../writes/change-positions.ts'
import { cursorExpired } from './change-retention.ts'
import {
  type ChangeFilters,
  type ChangeRow,
  horizonPosition,
  scanChanges,
} from './changes.queries.ts'
import type { FeedHeads } from './feed-heads.ts'

/** Positions one statement scans: a bound on the work of a caller far behind. */
export const SCAN_WINDOW = 1000

/** Windows one request scans before it answers, even with nothing to show. */
const WINDOWS_PER_REQUEST = 10

/** Who reads the feed, and what of it: the caller's visibility and the filters. */
export interface FeedReader {
  visibility: Visibility
  filters: ChangeFilters
}

/** What the feed's readers in this process share (graph/changes/changes.routes.ts). */
export interface FeedWatch {
  readonly heads: FeedHeads
  /** Reads of the feed take turns, so polls woken together do not crowd out other requests. */
  readonly turns: Turns
  /** Whether every commit pulses its workspace's waiters now (`ChangeWakeups.hearing`). */
  hearing(): boolean
}

/** How one read of the feed proceeds. */
export interface ReadOptions {
  limit: number
  /** Changes made before this have left the feed: a cursor before them is expired. */
  retainedSince: Date
  /** How long to wait for a change when there is none yet; 0 answers at once. */
  waitMs: number
  /** Aborted when the client goes away or the app closes: the wait ends. */
  signal: AbortSignal
  /**
   * The reader as a request made now would be, asked every time a wait ends (before the feed is
   * read again after a pulse): it throws the 401 of a credential that has ended meanwhile, and
   * reflects access at the current ACL epoch.
   */
  awake: () => Promise<FeedReader>
}

/** A page of the feed: the changes shown and the position to continue after. */
export interface ChangesRead {
  rows: ChangeRow[]
  position: number
}

/**
 * Reads the changes after `from` (a cursor's position, or the oldest retained) that the reader
 * may see: at most `limit`, from bounded windows of positions. Hidden changes are passed over and
 * the position moves past them, so a caller far behind makes progress on every request even when
 * nothing is shown. When the caller has caught up with nothing to show and `waitMs` allows, waits
 * for a pulse of the workspace and, woken, asks `awake` for the reader as it is now before it
 * reads again. A poll from the head this process last saw, with no pulse since, waits without
 * reading first; a wait that ends with no pulse answers without reading again (nothing changed),
 * once `awake` has found the credential still good.
 */
export async function readChanges(
  deps: AppDeps,
  watch: FeedWatch,
  reader: FeedReader,
  from: number | 'start',
  options: ReadOptions,
): Promise<ChangesRead> {
  const ws = reader.visibility.principal.workspaceId
  const pulsesNow = () => deps.changeSignal.pulses(ws)
  const deadline = performance.now() + options.waitMs
  let current = reader
  let position = typeof from === 'number' ? from : 0
  let windows = 0
  let woken = false
  // The pulse count the last read started at; null while a read is due.
  let since: number | null = null
  if (options.waitMs > 0 && typeof from === 'number' && watch.hearing()) {
    const pulses = pulsesNow()
    if (watch.heads.isHead(ws, from, pulses)) since = pulses
  }
  for (;;) {
    if (since === null) {
      const read = await watch.turns.run(options.signal, async () => {
        if (woken) current = await options.awake()
        const pulses = pulsesNow()
        if (windows === 0) {
          // A request's first read sees every change committed before it, on any instance. A
          // long poll may share a numbering pass instead: one that other processes' commits
          // have not pulsed yet wakes it as soon as they do.
          if (options.waitMs > 0 && watch.hearing())
            await watch.heads.numberUpTo(deps.db, ws, pulses)
          else await numberCommittedChanges(deps.db, ws)
          const horizon = await horizonPosition(deps.db, ws, options.retainedSince)
          if (from === 'start') position = horizon
          else if (from < horizon) throw cursorExpired()
        } else await watch.heads.numberUpTo(deps.db, ws, pulses)
        const scan = await scanChanges(
          deps.db,
          current.visibility,
          current.filters,
          position,
          options.limit,
          SCAN_WINDOW,
        )
        return { pulses, scan }
      })
      if (!read) {
        // Aborted while queued: the client left, or the server is closing. A page from the start
        // not read yet has no position to give.
        if (from === 'start' && windows === 0)
          throw new ProblemError(
            'service_unavailable',
            'The server is shutting down; retry shortly.',
            {
              headers: { 'retry-after': '1' },
            },
          )
        return { rows: [], position }
      }
      const { pulses, scan } = read
      windows++
      woken = false
      if (scan.rows.length > options.limit) {
        const rows = scan.rows.slice(0, options.limit)
        return { rows, position: rows.at(-1)?.position ?? position }
      }
      const scannedFrom = position
      position = scan.scannedTo ?? position
      if (scan.rows.length > 0) return { rows: scan.rows, position }
      if (position >= scannedFrom + SCAN_WINDOW) {
        if (windows < WINDOWS_PER_REQUEST) continue
        return { rows: [], position }
      }
      // Caught up: `position` is the head as of this read.
      watch.heads.saw(ws, position, pulses)
      since = pulses
    }
    const remaining = deadline - performance.now()
    if (remaining <= 0 || options.signal.aborted) return { rows: [], position }
    const outcome = await waitCounted(deps, ws, remaining, options.signal, since)
    if (outcome === 'aborted') return { rows: [], position }
    if (outcome === 'timeout') {
      // Nothing changed, so nothing is read; but a credential that ended meanwhile gets its 401.
      await options.awake()
      return { rows: [], position }
    }
    woken = true
    since = null
  }
}

// A long poll's wait for its workspace's next pulse, counted among the open waits while it lasts.
async function waitCounted(
  deps: AppDeps,
  ws: string,
  ms: number,
  signal: AbortSignal,
  since: number,
) {
  const waits = deps.metrics.openWaits.labels({ kind: 'changes_long_poll' })
  waits.inc()
  try {
    return await deps.changeSignal.next(ws, ms, signal, since)
  } finally {
    waits.dec()
  }
}
