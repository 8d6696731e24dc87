import type { AppDeps } from '../../app-deps.ts'
import { listenForOutboxEvents } from '../../writes/outbox-listener.ts'

/**
 * What wakes a long poll of the feed: this process's commits (the change signal) and, on
 * PostgreSQL, the outbox's NOTIFY for other processes' writes, listened to from the first long
 * poll on. Both are hints; the poll also re-reads on its own every few hundred milliseconds,
 * which covers changes that raise no outbox event.
 */
export class ChangeWakeups {
  readonly #deps: AppDeps
  #listener: { close(): Promise<void> } | null = null
  #closed = false

  constructor(deps: AppDeps) {
    this.#deps = deps
  }

  /** Starts listening to other processes once, when a database URL says there can be any. */
  listen(onError: (error: unknown) => void): void {
    const url = this.#deps.config.databaseUrl
    if (this.#listener || this.#closed || !url) return
    this.#listener = listenForOutboxEvents(url, () => this.#deps.changeSignal.notify(), onError)
  }

  /** Stops listening; the app is closing. */
  async close(): Promise<void> {
    this.#closed = true
    await this.#listener?.close()
  }
}
