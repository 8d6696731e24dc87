/** The source of "now"; injected so that tests can move time instead of sleeping. */
export interface Clock {
  now(): Date
}

/** The real wall clock. */
export const systemClock: Clock = { now: () => new Date() }

/** A clock that stands still until moved; for tests of windows and expiries. */
export class ManualClock implements Clock {
  #time: number

  constructor(start: Date | string = '2026-11-22T10:00:00.000Z') {
    this.#time = new Date(start).getTime()
  }

  now(): Date {
    return new Date(this.#time)
  }

  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.#time += ms
  }
}
