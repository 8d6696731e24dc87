import { sql } from 'kysely'
import type { Db } from '../db/database.ts'
import { PREPARED } from '../db/prepared-statements.ts'
import type { RateLimitStore, RateLimitSubject } from './rate-limit-store.ts'

// Counts kept only in memory reach the shared table this often.
const FLUSH_EVERY_MS = 100
// A count an instance last read from the table longer ago than this is read again first.
const FRESH_FOR_MS = 250
// Budgets below this are counted in the table on every request (sign-in attempts, tests).
const EXACT_BELOW = 100
// Old windows are swept from the table at most this often by each process.
const SWEEP_EVERY_MS = 60_000

// One token's budget of one kind in one window, as this instance knows it.
interface WindowCount {
  readonly subject: RateLimitSubject
  readonly windowStart: Date
  /** The shared count when this instance last wrote to or read the table. */
  known: number
  /** Requests counted here since, not yet in the table. */
  pending: number
  /** When `known` was read (ms since the epoch); 0: never. */
  readAt: number
}

/**
 * Counts in PostgreSQL (an unlogged table), so that every instance of the service spends the
 * same budget, without a statement per request (docs/api.md, "Rate limits"). Each instance
 * counts in memory and adds its counts to the table every FLUSH_EVERY_MS, reading back the
 * total. A request is counted in the table at once, and sees the shared total, when the
 * instance's view is older than FRESH_FOR_MS, when it would be the hundredth of the budget
 * counted here since the view was read, when the budget is small (under EXACT_BELOW), or when
 * the count is in the last tenth of the budget. Once the shared count reaches the limit, an
 * instance admits at most a hundredth of the budget more before it sees so: the overshoot is
 * under one hundredth of the budget per instance.
 */
export class SharedRateLimitStore implements RateLimitStore {
  readonly #db: Db
  readonly #counts = new Map<string, WindowCount>()
  readonly #timer: NodeJS.Timeout
  #flushing: Promise<void> = Promise.resolve()
  #lastSweep = 0
  /** The newest window a request counted in (the service's clock, which tests move). */
  #currentWindow = 0

  constructor(db: Db) {
    this.#db = db
    this.#timer = setInterval(() => void this.#flushAll(), FLUSH_EVERY_MS)
    this.#timer.unref()
  }

  async hit(subject: RateLimitSubject, windowStart: Date, limit: number): Promise<number> {
    this.#currentWindow = Math.max(this.#currentWindow, windowStart.getTime())
    const entry = this.#entry(subject, windowStart)
    const estimate = entry.known + entry.pending + 1
    const exactFrom = limit < EXACT_BELOW ? 0 : limit - Math.ceil(limit / 10)
    const batch = Math.ceil(limit / 100)
    const fresh = Date.now() - entry.readAt < FRESH_FOR_MS
    if (estimate < exactFrom && entry.pending + 1 < batch && fresh) {
      entry.pending++
      return estimate
    }
    return this.#add(entry, 1)
  }

  async close(): Promise<void> {
    clearInterval(this.#timer)
    await this.#flushAll()
  }

  // The instance's count of a subject's window; counts of earlier windows are dropped once
  // they are in the table.
  #entry(subject: RateLimitSubject, windowStart: Date): WindowCount {
    const key = `${subject.workspaceId}\n${subject.tokenId}\n${subject.kind}\n${windowStart.getTime()}`
    let entry = this.#counts.get(key)
    if (!entry) {
      entry = { subject, windowStart, known: 0, pending: 0, readAt: 0 }
      this.#counts.set(key, entry)
    }
    return entry
  }

  // Adds `hits` and the entry's pending count to the table; returns the shared total.
  async #add(entry: WindowCount, hits: number): Promise<number> {
    const pending = entry.pending
    entry.pending = 0
    const readAt = Date.now()
    try {
      const total = await this.#upsert(entry, pending + hits)
      // Flushes may finish out of order; within a window the count only grows.
      entry.known = Math.max(entry.known, total)
      entry.readAt = Math.max(entry.readAt, readAt)
      return total
    } catch (error) {
      entry.pending += pending
      throw error
    }
  }

  async #upsert(entry: WindowCount, hits: number): Promise<number> {
    const row = await this.#db
      .insertInto('rate_limit_windows')
      .values({
        workspace_id: entry.subject.workspaceId,
        token_id: entry.subject.tokenId,
        kind: entry.subject.kind,
        window_start: entry.windowStart,
        hits,
      })
      .onConflict((conflict) =>
        conflict
          .columns(['workspace_id', 'token_id', 'kind', 'window_start'])
          .doUpdateSet({ hits: sql<number>`rate_limit_windows.hits + ${hits}` }),
      )
      .returning('hits')
      .modifyEnd(PREPARED)
      .executeTakeFirstOrThrow()
    return row.hits
  }

  // Writes every pending count, one flush at a time; forgets windows that have ended.
  #flushAll(): Promise<void> {
    this.#flushing = this.#flushing.then(async () => {
      const current = this.#currentWindow
      for (const [key, entry] of this.#counts) {
        if (entry.pending > 0) await this.#add(entry, 0).catch(() => undefined)
        if (entry.pending === 0 && entry.windowStart.getTime() < current) {
          this.#counts.delete(key)
        }
      }
      await this.#sweep(current).catch(() => undefined)
    })
    return this.#flushing
  }

  // Deletes the table's rows of windows before the current one, as the per-request sweep did.
  async #sweep(current: number): Promise<void> {
    if (current - this.#lastSweep < SWEEP_EVERY_MS) return
    this.#lastSweep = current
    await this.#db
      .deleteFrom('rate_limit_windows')
      .where('window_start', '<', new Date(current))
      .execute()
  }
}
