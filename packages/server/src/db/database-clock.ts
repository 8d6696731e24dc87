import { sql } from 'kysely'
import type { Clock } from '../lib/clock.ts'
import type { Db } from './database.ts'

// Samples per measurement: the one with the shortest round trip is the most exact.
const SAMPLES = 3
// How often the clock is measured again: the monotonic clock drifts by far less in that time.
const RESYNC_MS = 60_000

/** Where a measurement comes from: the database's time, and this process's monotonic clock. */
export interface ClockSources {
  /** The database's time now (`clock_timestamp()`). */
  databaseTime(): Promise<Date>
  /** Milliseconds of a clock that only moves forward, at its own pace (`performance.now`). */
  monotonic(): number
}

/**
 * The database's clock, read through this process's monotonic clock (docs/architecture.md,
 * "Time"). Every instance on one database decides expiries, leases, windows and sweeps by the
 * same time, whatever its own wall clock says: an instance whose clock is a day ahead neither
 * takes an idempotency key for expired nor sweeps one early. The database's time is measured at
 * start and every minute; between measurements the monotonic clock, which no setting of the
 * wall clock moves, carries it forward. A measurement that fails keeps the last one.
 */
export class DatabaseClock implements Clock {
  readonly #sources: ClockSources
  #anchor = 0
  #anchoredAt = 0
  #timer: NodeJS.Timeout | undefined

  private constructor(sources: ClockSources) {
    this.#sources = sources
  }

  /** A clock measured once from the database; `follow` keeps it measured. */
  static async measure(sources: ClockSources): Promise<DatabaseClock> {
    const clock = new DatabaseClock(sources)
    await clock.resync()
    return clock
  }

  /** The sources of a database: its `clock_timestamp()` and `performance.now()`. */
  static sourcesOf(db: Db): ClockSources {
    return {
      databaseTime: async () =>
        (await sql<{ t: Date }>`select clock_timestamp() as t`.execute(db)).rows[0]?.t ??
        new Date(),
      monotonic: () => performance.now(),
    }
  }

  now(): Date {
    return new Date(this.#anchor + (this.#sources.monotonic() - this.#anchoredAt))
  }

  /** How far `wall` (this machine's clock, by default) is ahead of the database's, in ms. */
  skewMs(wall: number = Date.now()): number {
    return wall - this.now().getTime()
  }

  /** Measures the database's time again, keeping the sample with the shortest round trip. */
  async resync(): Promise<void> {
    let best: { rtt: number; anchor: number; at: number } | undefined
    for (let i = 0; i < SAMPLES; i++) {
      const sent = this.#sources.monotonic()
      const time = (await this.#sources.databaseTime()).getTime()
      const back = this.#sources.monotonic()
      const rtt = back - sent
      // The database read its clock about halfway through the round trip.
      if (!best || rtt < best.rtt) best = { rtt, anchor: time, at: sent + rtt / 2 }
    }
    if (!best) return
    this.#anchor = best.anchor
    this.#anchoredAt = best.at
  }

  /** Measures again every minute until `stop`; `onError` hears of a measurement that failed. */
  follow(onError: (error: unknown) => void): void {
    this.stop()
    this.#timer = setInterval(() => void this.resync().catch(onError), RESYNC_MS)
    this.#timer.unref()
  }

  /** Stops measuring. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = undefined
  }
}
