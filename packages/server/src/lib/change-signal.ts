/**
 * An in-process pulse raised after each write commits: long-polling readers of the change feed
 * wait on it instead of polling alone. A pulse carries nothing; waiters re-read the database.
 */
export class ChangeSignal {
  #waiters = new Set<() => void>()
  #pulses = 0

  /** How many pulses there have been: read it before a scan, pass it to `next` after. */
  get pulses(): number {
    return this.#pulses
  }

  /** Wakes every current waiter. */
  notify(): void {
    this.#pulses++
    const waiters = [...this.#waiters]
    this.#waiters.clear()
    for (const wake of waiters) wake()
  }

  /**
   * Resolves at the next pulse, after `ms` milliseconds, or when `signal` aborts, whichever comes
   * first; at once when a pulse came after `since` (so one raised during a scan is not missed).
   * Never rejects.
   */
  next(ms: number, signal?: AbortSignal, since = this.#pulses): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted || since !== this.#pulses) return resolve()
      const done = () => {
        clearTimeout(timer)
        this.#waiters.delete(done)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.#waiters.add(done)
      signal?.addEventListener('abort', done, { once: true })
    })
  }
}
