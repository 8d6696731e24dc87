/**
 * At most `size` holders at a time, the others served in the order they asked. A waiter whose
 * signal aborts leaves the queue.
 */
export class Turns {
  readonly #size: number
  #held = 0
  readonly #queue: (() => void)[] = []

  constructor(size: number) {
    this.#size = size
  }

  /** Runs `work` in a turn; resolves undefined without running it if `signal` aborts first. */
  async run<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T | undefined> {
    if (!(await this.#take(signal))) return undefined
    try {
      return await work()
    } finally {
      this.#give()
    }
  }

  #take(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false)
    if (this.#held < this.#size) {
      this.#held++
      return Promise.resolve(true)
    }
    return new Promise((resolve) => {
      const granted = () => {
        signal.removeEventListener('abort', aborted)
        resolve(true)
      }
      const aborted = () => {
        this.#queue.splice(this.#queue.indexOf(granted), 1)
        resolve(false)
      }
      this.#queue.push(granted)
      signal.addEventListener('abort', aborted, { once: true })
    })
  }

  #give(): void {
    const next = this.#queue.shift()
    // The turn passes straight to the next waiter; the count of holders stays.
    if (next) next()
    else this.#held--
  }
}
