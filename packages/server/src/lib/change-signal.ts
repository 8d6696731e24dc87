/**
 * An in-process pulse raised after each write commits: long-polling readers of the change feed
 * wait on it instead of polling alone. A pulse carries nothing; waiters re-read the database.
 */
export class ChangeSignal {
  #waiters = new Set<() => void>()

  /** Wakes every current waiter. */
  notify(): void {
    const waiters = [...this.#waiters]
    this.#waiters.clear()
    for (const wake of waiters) wake()
  }

  /**
   * Resolves at the next pulse, after `ms` milliseconds, or when `signal` aborts, whichever comes
   * first; never rejects.
   */
  next(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve()
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
