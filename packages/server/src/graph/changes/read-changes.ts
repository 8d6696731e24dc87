import type { Visibility } from '../../access/visibility.ts'
import type { AppDeps } from '../../app-deps.ts'
import { numberCommittedChanges } from '../../writes/change-positions.ts'
import { type ChangeFilters, type ChangeRow, scanChanges } from './changes.queries.ts'

/** Positions one statement scans: a bound on the work of a caller far behind. */
export const SCAN_WINDOW = 1000

/** Windows one request scans before it answers, even with nothing to show. */
const WINDOWS_PER_REQUEST = 10

/** How often a long poll re-reads when nothing wakes it. */
const POLL_MS = 400

/** Who reads the feed, and what of it: the caller's visibility and the filters. */
export interface FeedReader {
  visibility: Visibility
  filters: ChangeFilters
}

/** How one read of the feed proceeds. */
export interface ReadOptions {
  limit: number
  /** How long to wait for a change when there is none yet; 0 answers at once. */
  waitMs: number
  /** Aborted when the client goes away or the app closes: the wait ends. */
  signal: AbortSignal
  /**
   * The reader as a request made now would be, asked every time a wait ends, before the feed is
   * read again: it throws the 401 of a credential that has ended meanwhile, and reflects access
   * at the current ACL epoch.
   */
  awake: () => Promise<FeedReader>
}

/** A page of the feed: the changes shown and the position to continue after. */
export interface ChangesRead {
  rows: ChangeRow[]
  position: number
}

/**
 * Reads the changes after `after` the reader may see: at most `limit`, from bounded windows of
 * positions. Hidden changes are passed over and the position moves past them, so a caller far
 * behind makes progress on every request even when nothing is shown. When the caller has caught
 * up with nothing to show and `waitMs` allows, waits for a commit (or re-reads every POLL_MS),
 * and each time it wakes asks `awake` for the reader as it is now before it reads again.
 */
export async function readChanges(
  deps: AppDeps,
  reader: FeedReader,
  after: number,
  options: ReadOptions,
): Promise<ChangesRead> {
  const deadline = performance.now() + options.waitMs
  let current = reader
  let position = after
  let windows = 0
  for (;;) {
    const pulses = deps.changeSignal.pulses
    // What committed since the last pass is numbered before it is read (docs/changes.md).
    if (windows > 0) await numberCommittedChanges(deps.db, current.visibility.principal.workspaceId)
    const scan = await scanChanges(
      deps.db,
      current.visibility,
      current.filters,
      position,
      options.limit,
      SCAN_WINDOW,
    )
    windows++
    if (scan.rows.length > options.limit) {
      const rows = scan.rows.slice(0, options.limit)
      return { rows, position: rows.at(-1)?.position ?? position }
    }
    const scannedFrom = position
    position = scan.scannedTo ?? position
    if (scan.rows.length > 0) return { rows: scan.rows, position }
    const caughtUp = position < scannedFrom + SCAN_WINDOW
    if (!caughtUp) {
      if (windows < WINDOWS_PER_REQUEST) continue
      return { rows: [], position }
    }
    const remaining = deadline - performance.now()
    if (remaining <= 0 || options.signal.aborted) return { rows: [], position }
    await deps.changeSignal.next(Math.min(POLL_MS, remaining), options.signal, pulses)
    current = await options.awake()
  }
}
