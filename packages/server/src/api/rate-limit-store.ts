/** Which budget a request spends: every route is a read unless it declares `write: true`. */
export type RateLimitKind = 'read' | 'write'

/** Whose budget: one per token and kind. */
export interface RateLimitSubject {
  workspaceId: string
  tokenId: string
  kind: RateLimitKind
}

/**
 * The workspace id of sign-in budgets, which belong to no workspace: an email's (`email:…`) and a
 * client address's (`ip:…`) attempts on the sign-in pages.
 */
export const SIGN_IN_BUDGETS = 'oauth-sign-in'

/** Counts requests per fixed one-minute window. */
export interface RateLimitStore {
  /**
   * Counts one request in the window that starts at `windowStart`; returns the window's count.
   * `limit` is the budget the count is held against: a store may count loosely far below it.
   */
  hit(subject: RateLimitSubject, windowStart: Date, limit: number): Promise<number>
  /** Writes what is still counted only in memory and stops counting in the background. */
  close(): Promise<void>
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

  async close(): Promise<void> {}
}
