import type { Db } from '../db/database.ts'
import type { Clock } from '../lib/clock.ts'
import {
  IDEMPOTENCY_LEASE_MS,
  type KeyClaim,
  type KeyScope,
  releaseKey,
} from './idempotency-store.ts'

// How soon a release that could not reach the database is tried again.
const RETRY_MS = 100

// One set of pending releases per database, so that every write of an app shares it.
const releasesByDb = new WeakMap<Db, KeyReleases>()

/** The releases of the writes made through `db`. */
export function keyReleasesOf(db: Db, clock: Clock): KeyReleases {
  let releases = releasesByDb.get(db)
  if (!releases) {
    releases = new KeyReleases(db, clock)
    releasesByDb.set(db, releases)
  }
  return releases
}

/**
 * Gives idempotency keys back after failed writes, including writes that failed because the
 * database went away: then the release cannot reach it either, so it is kept and tried again
 * until the database answers, instead of leaving the key held until its lease ends and turning
 * every retry away with 409 meanwhile. A release is fenced by the claim's lock token and by the
 * key still being in progress, so releasing a claim whose write did commit changes nothing.
 */
export class KeyReleases {
  readonly #db: Db
  readonly #clock: Clock
  readonly #pending = new Map<string, KeyClaim & { until: number }>()
  #timer: NodeJS.Timeout | undefined

  constructor(db: Db, clock: Clock) {
    this.#db = db
    this.#clock = clock
  }

  /** Releases a claim now, or as soon as the database can be reached again. */
  async release(claim: KeyClaim): Promise<void> {
    try {
      await releaseKey(this.#db, claim)
    } catch {
      const until = this.#clock.now().getTime() + IDEMPOTENCY_LEASE_MS
      this.#pending.set(claim.lockToken, { ...claim, until })
      this.#schedule()
    }
  }

  /**
   * Releases what is still pending; cheap when nothing is. A write runs it before claiming its
   * key, so a retry served by this process finds the key its failed attempt held free.
   */
  async drain(): Promise<void> {
    const now = this.#clock.now().getTime()
    for (const [token, claim] of this.#pending) {
      // Past its lease the claim may be taken over anyway; another request may hold it now.
      if (claim.until <= now) {
        this.#pending.delete(token)
        continue
      }
      try {
        await releaseKey(this.#db, claim)
        this.#pending.delete(token)
      } catch {
        return // still unreachable: the timer tries again
      }
    }
  }

  /** Whether a failed attempt's claim on this key still waits for the database to be released. */
  isPending(scope: KeyScope): boolean {
    for (const claim of this.#pending.values()) {
      if (
        claim.key === scope.key &&
        claim.tokenId === scope.tokenId &&
        claim.workspaceId === scope.workspaceId
      )
        return true
    }
    return false
  }

  /** How many releases wait for the database. */
  get pending(): number {
    return this.#pending.size
  }

  #schedule(): void {
    if (this.#timer) return
    this.#timer = setTimeout(async () => {
      this.#timer = undefined
      await this.drain()
      if (this.#pending.size > 0) this.#schedule()
    }, RETRY_MS)
    // Nothing here is worth keeping a stopping process alive for: the lease ends on its own.
    this.#timer.unref()
  }
}
