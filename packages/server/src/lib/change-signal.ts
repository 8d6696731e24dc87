/** Why a wait for a change ended. */
export type WaitOutcome = 'changed' | 'timeout' | 'aborted'

/**
 * Pulses raised when a workspace may have new changes: after a write of this process commits, or
 * when another process's commit is heard of. Long polls of the change feed wait on the pulses of
 * their workspace instead of re-reading on a timer. A pulse carries nothing; a woken reader reads
 * the database. Counts only grow, so "nothing since" is a comparison of two numbers.
 */
export class ChangeSignal {
  readonly #waiters = new Map<string, Set<(outcome: WaitOutcome) => void>>()
  readonly #counts = new Map<string, number>()
  // Added to every workspace's count: a pulse of all of them at once.
  #everyone = 0

  /** The workspace's pulse count: read it before a read, pass it to `next` after. */
  pulses(workspaceId: string): number {
    return (this.#counts.get(workspaceId) ?? 0) + this.#everyone
  }

  /** Wakes the workspace's waiters: it may have new changes. */
  notify(workspaceId: string): void {
    this.#counts.set(workspaceId, (this.#counts.get(workspaceId) ?? 0) + 1)
    const waiters = this.#waiters.get(workspaceId)
    if (!waiters) return
    this.#waiters.delete(workspaceId)
    for (const wake of waiters) wake('changed')
  }

  /** Wakes every waiter: any workspace may have changes nobody heard of. */
  notifyAll(): void {
    this.#everyone++
    const all = [...this.#waiters.values()]
    this.#waiters.clear()
    for (const waiters of all) for (const wake of waiters) wake('changed')
  }

  /** How many wait on the workspace now. */
  waiting(workspaceId: string): number {
    return this.#waiters.get(workspaceId)?.size ?? 0
  }

  /** The workspaces someone waits on now. */
  waitedOn(): string[] {
    return [...this.#waiters.keys()]
  }

  /**
   * Resolves at the workspace's next pulse, after `ms` milliseconds, or when `signal` aborts,
   * whichever comes first; at once when a pulse came after `since` (so one raised during a read
   * is not missed). Never rejects.
   */
  next(workspaceId: string, ms: number, signal: AbortSignal, since: number): Promise<WaitOutcome> {
    if (signal.aborted) return Promise.resolve('aborted')
    if (since !== this.pulses(workspaceId)) return Promise.resolve('changed')
    return new Promise((resolve) => {
      const done = (outcome: WaitOutcome) => {
        clearTimeout(timer)
        this.#waiters.get(workspaceId)?.delete(done)
        if (this.#waiters.get(workspaceId)?.size === 0) this.#waiters.delete(workspaceId)
        signal.removeEventListener('abort', aborted)
        resolve(outcome)
      }
      const aborted = () => done('aborted')
      const timer = setTimeout(() => done('timeout'), ms)
      const waiters = this.#waiters.get(workspaceId) ?? new Set()
      waiters.add(done)
      this.#waiters.set(workspaceId, waiters)
      signal.addEventListener('abort', aborted, { once: true })
    })
  }
}
