import { sql } from 'kysely'
import type { AppDeps } from '../../app-deps.ts'
import { CHANGES_CHANNEL } from '../../db/channels.ts'
import { listenForNotifications } from '../../db/notification-listener.ts'
import type { FeedHeads } from './feed-heads.ts'

/** How often a workspace with waiting polls is looked at, whatever woke them or did not. */
const FALLBACK_MS = 10_000

/** As often while other processes' commits may go unheard (PostgreSQL, not listening). */
const UNHEARD_FALLBACK_MS = 1_000

/**
 * What wakes the long polls of the feed besides this process's commits (docs/changes.md, "Long
 * polling"): on PostgreSQL, the NOTIFY of other processes' commits, listened to from the first
 * long poll on; and a re-read of each waited-on workspace's head, one for all its polls, which
 * wakes them if the head moved without a word (a notification lost with its connection).
 */
export class ChangeWakeups {
  readonly #deps: AppDeps
  readonly #heads: FeedHeads
  readonly #onError: (error: unknown) => void
  #listener: { close(): Promise<void> } | null = null
  #hearing: boolean
  #timer: NodeJS.Timeout | null = null
  #lastLook = 0
  #looking = false
  #closed = false

  constructor(deps: AppDeps, heads: FeedHeads, onError: (error: unknown) => void) {
    this.#deps = deps
    this.#heads = heads
    this.#onError = onError
    // Embedded, this process holds the database alone: its own commits are all there are.
    this.#hearing = !deps.config.databaseUrl
  }

  /**
   * Whether every commit in a workspace pulses its waiters: true embedded, and on PostgreSQL
   * while the listener is connected. Only then may "no pulse" be read as "no change".
   */
  get hearing(): boolean {
    return this.#hearing
  }

  /** Starts listening (once) and looking at waited-on workspaces: a long poll is about to wait. */
  start(): void {
    if (this.#closed || this.#timer) return
    this.#lastLook = performance.now()
    this.#timer = setInterval(() => void this.#look(), UNHEARD_FALLBACK_MS)
    this.#timer.unref()
    const url = this.#deps.config.databaseUrl
    if (!url) return
    const signal = this.#deps.changeSignal
    this.#listener = listenForNotifications(url, CHANGES_CHANNEL, {
      notification: (workspaceId) => signal.notify(workspaceId),
      listening: () => {
        this.#hearing = true
        // Whatever committed before LISTEN took effect was heard by nobody.
        signal.notifyAll()
      },
      lost: (error) => {
        this.#hearing = false
        if (error) this.#onError(error)
      },
    })
  }

  /** Stops listening and looking; the app is closing. */
  async close(): Promise<void> {
    this.#closed = true
    if (this.#timer) clearInterval(this.#timer)
    await this.#listener?.close()
  }

  // One statement per waited-on workspace, whatever the number of polls waiting on it.
  async #look(): Promise<void> {
    const due = this.#lastLook + (this.#hearing ? FALLBACK_MS : UNHEARD_FALLBACK_MS)
    if (this.#looking || performance.now() < due) return
    this.#looking = true
    this.#lastLook = performance.now()
    try {
      for (const workspaceId of this.#deps.changeSignal.waitedOn()) {
        const head = await sql<{ last: number | null; pending: boolean }>`select
            (select last from change_positions where workspace_id = ${workspaceId}) as last,
            exists (select from activity where workspace_id = ${workspaceId}
              and position is null) as pending`
          .execute(this.#deps.db)
          .then((result) => result.rows[0])
        const seen = this.#heads.head(workspaceId)
        if (head?.pending || seen === undefined || Number(head?.last ?? 0) > seen)
          this.#deps.changeSignal.notify(workspaceId)
      }
    } catch (error) {
      this.#onError(error)
    } finally {
      this.#looking = false
    }
  }
}
