import type { PostgresPool } from 'kysely'
import type pg from 'pg'

/** One checkout's wait for a connection: how long, and whether it got one or gave up. */
export type CheckoutListener = (seconds: number, outcome: 'acquired' | 'timed_out') => void

/**
 * How the connection pool is used, for metrics (docs/operations.md, "Metrics"): its connections
 * now, the checkouts waiting for one, and each checkout's wait. pg counts the first three but
 * times nothing, so the pool Kysely is given times every checkout it makes.
 */
export class PoolUse {
  readonly #pool: pg.Pool
  readonly #listeners = new Set<CheckoutListener>()

  constructor(pool: pg.Pool) {
    this.#pool = pool
  }

  /** The most connections the pool opens (one on the embedded database). */
  get max(): number {
    return this.#pool.options.max
  }

  /** Connections open now, busy or idle. */
  get open(): number {
    return this.#pool.totalCount
  }

  /** Open connections no one has checked out. */
  get idle(): number {
    return this.#pool.idleCount
  }

  /** Checkouts waiting for a connection now. */
  get waiting(): number {
    return this.#pool.waitingCount
  }

  /** Calls `listener` after each checkout with its wait; returns the way to stop. */
  onCheckout(listener: CheckoutListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** The pool as Kysely takes it, each checkout timed. */
  forKysely(): PostgresPool {
    const pool = this.#pool
    const report = (started: number, outcome: 'acquired' | 'timed_out') => {
      if (this.#listeners.size === 0) return
      const seconds = (performance.now() - started) / 1000
      for (const listener of this.#listeners) listener(seconds, outcome)
    }
    return {
      // The client class Kysely opens to cancel a statement (pg's pool has it; its types do not).
      get Client() {
        return (pool as pg.Pool & Pick<PostgresPool, 'Client'>).Client
      },
      get options() {
        return pool.options
      },
      async connect() {
        const started = performance.now()
        try {
          const client = await pool.connect()
          report(started, 'acquired')
          return client
        } catch (error) {
          // pg's own words for a wait that outlasted connectionTimeoutMillis; anything else is
          // a connection that failed to open, which is not a wait.
          if (/timeout exceeded when trying to connect/i.test((error as Error).message))
            report(started, 'timed_out')
          throw error
        }
      },
      end: () => pool.end(),
    }
  }
}
