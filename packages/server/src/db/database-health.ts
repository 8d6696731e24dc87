import { databasePressure } from './database-pressure.ts'

// How long a disk found full keeps the server not ready, unless a write commits sooner: long
// enough for a load balancer to send writes elsewhere, short enough to come back on its own.
const DISK_FULL_HOLD_MS = 30_000

/**
 * What the server has learnt of its database's health from the requests it served, for
 * `/readyz`: a disk found full (a write failed for want of space) makes the server not ready for
 * a while; a write that commits, or the while passing, makes it ready again, with nothing for an
 * operator to do once space is freed.
 */
export class DatabaseHealth {
  #diskFullUntil = 0
  readonly #now: () => number

  constructor(now: () => number = () => performance.now()) {
    this.#now = now
  }

  /** Looks at an error a request ended with. */
  observe(error: unknown): void {
    if (databasePressure(error) === 'disk_full')
      this.#diskFullUntil = this.#now() + DISK_FULL_HOLD_MS
  }

  /** A write committed: whatever filled the disk has been freed. */
  written(): void {
    this.#diskFullUntil = 0
  }

  /** Whether a write recently failed for want of disk space, and none has committed since. */
  get diskFull(): boolean {
    return this.#now() < this.#diskFullUntil
  }
}
