import { sql } from 'kysely'
import type { Db } from '../db/database.ts'

/** Which budget a request spends: every route is a read unless it declares `write: true`. */
export type RateLimitKind = 'read' | 'write'

/** Whose budget: one per token and kind. */
export interface RateLimitSubject {
  workspaceId: string
  tokenId: string
  kind: RateLimitKind
}

/** Counts requests per fixed one-minute window. */
export interface RateLimitStore {
  /** Counts one request in the window that starts at `windowStart`; returns the window's count. */
  hit(subject: RateLimitSubject, windowStart: Date): Promise<number>
}

/**
 * Counts in process memory: right for the embedded database, where the data folder's lock
 * guarantees a single server process.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  #windowStart = 0
  #counts = new Map<string, number>()

  async hit(subject: RateLimitSubject, windowStart: Date): Promise<number> {
    if (windowStart.getTime() !== this.#windowStart) {
      this.#windowStart = windowStart.getTime()
      this.#counts.clear()
    }
    const key = `${subject.workspaceId}\n${subject.tokenId}\n${subject.kind}`
    const count = (this.#counts.get(key) ?? 0) + 1
    this.#counts.set(key, count)
    return count
  }
}

// Old windows are swept at most this often by each process.
const SWEEP_EVERY_MS = 60_000

/**
 * Counts in PostgreSQL (an unlogged table), so that every instance of the service spends the
 * same budget: one upsert per request.
 */
export class DatabaseRateLimitStore implements RateLimitStore {
  readonly #db: Db
  #lastSweep = 0

  constructor(db: Db) {
    this.#db = db
  }

  async hit(subject: RateLimitSubject, windowStart: Date): Promise<number> {
    if (windowStart.getTime() - this.#lastSweep >= SWEEP_EVERY_MS) {
      this.#lastSweep = windowStart.getTime()
      await this.#db
        .deleteFrom('rate_limit_windows')
        .where('window_start', '<', windowStart)
        .execute()
    }
    const row = await this.#db
      .insertInto('rate_limit_windows')
      .values({
        workspace_id: subject.workspaceId,
        token_id: subject.tokenId,
        kind: subject.kind,
        window_start: windowStart,
        hits: 1,
      })
      .onConflict((conflict) =>
        conflict
          .columns(['workspace_id', 'token_id', 'kind', 'window_start'])
          .doUpdateSet({ hits: sql<number>`rate_limit_windows.hits + 1` }),
      )
      .returning('hits')
      .executeTakeFirstOrThrow()
    return row.hits
  }
}
