import type { AppDeps } from '../../app-deps.ts'
import { numberCommittedChanges } from '../../writes/change-positions.ts'
import { type ChangeRow, headPosition, scanAllChanges } from './changes.queries.ts'
import { SCAN_WINDOW } from './read-changes.ts'

/** Changes committed in a workspace, as every follower of it receives them. */
export interface FollowedBatch {
  /** Every change after the last batch, whoever may see it, in position order. */
  readonly rows: readonly ChangeRow[]
  /** The position the feed has been read up to: a cursor there misses none of them. */
  readonly position: number
}

/** One follower of a workspace's changes (an MCP change stream). */
export interface FeedFollower {
  readonly workspaceId: string
  /**
   * Receives each batch, unfiltered: the follower keeps what its caller may open, as a read of
   * the feed would. A batch it is still handling holds the next back for it alone.
   */
  receive(batch: FollowedBatch): Promise<void>
  /** Called when a wait ends with nothing new: a follower whose credential ended stops then. */
  idle(): Promise<void>
  /** The feed can no longer be read for it (the reader failed): its stream ends. */
  end(): void
}

// The longest wait for a change before followers are asked whether they are still good.
const IDLE_MS = 25_000
// Followers handed a batch at once: each reads a little of the database, and all of them at
// once would take every connection of the pool.
const AT_ONCE = 4

interface Workspace {
  readonly followers: Set<FeedFollower>
  readonly stop: AbortController
}

/**
 * The followers of each workspace's changes in this process, served by one reader per
 * workspace: a commit wakes it, it numbers and reads the new changes once, and hands the same
 * batch to every follower, so a thousand streams cost one read of the feed per change, not a
 * thousand. Each follower filters the batch for its own caller, which is a lookup of a few ids.
 */
export class FeedFollowers {
  readonly #deps: AppDeps
  readonly #closing: AbortSignal
  readonly #startWakeups: () => void
  readonly #onError: (error: unknown) => void
  readonly #workspaces = new Map<string, Workspace>()

  constructor(
    deps: AppDeps,
    options: { closing: AbortSignal; startWakeups: () => void; onError: (error: unknown) => void },
  ) {
    this.#deps = deps
    this.#closing = options.closing
    this.#startWakeups = options.startWakeups
    this.#onError = options.onError
  }

  /**
   * Adds a follower from now: returns the feed's position now (what it follows comes after it)
   * and how to leave. Changes are committed and numbered before the position is read.
   */
  async join(follower: FeedFollower): Promise<{ position: number; leave: () => void }> {
    const ws = follower.workspaceId
    const deps = this.#deps
    const since = deps.changeSignal.pulses(ws)
    await numberCommittedChanges(deps.db, ws)
    const position = await headPosition(deps.db, ws)
    let workspace = this.#workspaces.get(ws)
    if (!workspace) {
      workspace = { followers: new Set(), stop: new AbortController() }
      this.#workspaces.set(ws, workspace)
      this.#startWakeups()
      void this.#read(ws, workspace, position, since)
    }
    workspace.followers.add(follower)
    const joined = workspace
    return {
      position,
      leave: () => {
        joined.followers.delete(follower)
        if (joined.followers.size > 0) return
        joined.stop.abort()
        if (this.#workspaces.get(ws) === joined) this.#workspaces.delete(ws)
      },
    }
  }

  /** How many workspaces are being read: one reader each. */
  get readers(): number {
    return this.#workspaces.size
  }

  // One workspace's reader: waits for a pulse, reads what is new once, hands it to every follower.
  async #read(ws: string, workspace: Workspace, from: number, pulsesAtStart: number) {
    const deps = this.#deps
    const signal = AbortSignal.any([workspace.stop.signal, this.#closing])
    let position = from
    let since = pulsesAtStart
    try {
      while (!signal.aborted) {
        const outcome = await deps.changeSignal.next(ws, IDLE_MS, signal, since)
        if (outcome === 'aborted' || signal.aborted) return
        if (outcome === 'timeout') {
          await this.#each(workspace, (follower) => follower.idle())
          continue
        }
        since = deps.changeSignal.pulses(ws)
        await numberCommittedChanges(deps.db, ws)
        for (;;) {
          const scan = await scanAllChanges(deps.db, ws, position, SCAN_WINDOW)
          if (scan.scannedTo === null) break
          position = scan.scannedTo
          await this.#each(workspace, (follower) => follower.receive({ rows: scan.rows, position }))
          if (scan.rows.length < SCAN_WINDOW) break
        }
      }
    } catch (error) {
      if (!signal.aborted) this.#onError(error)
      // The reader is gone: its followers' streams end, and a new stream starts a new reader.
      if (this.#workspaces.get(ws) === workspace) this.#workspaces.delete(ws)
      for (const follower of workspace.followers) follower.end()
    }
  }

  // Hands one thing to every follower, a few at a time; one that fails is its own stream's end.
  async #each(workspace: Workspace, act: (follower: FeedFollower) => Promise<void>) {
    const queue = [...workspace.followers]
    const worker = async () => {
      for (let follower = queue.shift(); follower; follower = queue.shift()) {
        await act(follower).catch((error: unknown) => {
          this.#onError(error)
          follower.end()
        })
      }
    }
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, queue.length) }, worker))
  }
}
