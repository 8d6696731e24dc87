import type { Change, ChangePage, ListParams } from '../api-types.ts'
import type { RequestOptions, Transport } from '../transport.ts'

/** The query of one read of the feed: `types` as one comma-separated string, as the API takes. */
export type ListChangesParams = ListParams<'listChanges'> & { cursor?: string }

/** Where `follow` begins and what it selects. */
export interface FollowChangesOptions {
  /** Only these events, such as `['task.created', 'task.completed']`. */
  types?: readonly string[]
  /** Only changes of this project and what belongs to it. */
  projectId?: string
  /** `now` (default): changes from the first call on; `start`: the oldest retained first. */
  from?: 'now' | 'start'
  /** Resume after this cursor (a `cursor` kept from an earlier follower); wins over `from`. */
  cursor?: string
  /** Seconds each long poll waits (1–30, default 20); keep it below the client's `timeoutMs`. */
  wait?: number
  /** Changes per answer (1–200, default 50). */
  limit?: number
  /** Ends the iteration (without an error) when aborted. */
  signal?: AbortSignal
}

/**
 * A running follow of the feed: an async iterable of changes. `cursor` is the position after the
 * last answer consumed whole (and past hidden changes): store it to resume later with
 * `follow({ cursor })`.
 */
export class ChangeFollower implements AsyncIterable<Change> {
  readonly #changes: Changes
  readonly #options: FollowChangesOptions
  #cursor: string | undefined

  constructor(changes: Changes, options: FollowChangesOptions) {
    this.#changes = changes
    this.#options = options
    this.#cursor = options.cursor
  }

  /** The position to resume from; undefined until the first answer when following from now. */
  get cursor(): string | undefined {
    return this.#cursor
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Change> {
    const { signal } = this.#options
    const query = {
      ...(this.#options.types ? { types: this.#options.types.join(',') } : {}),
      ...(this.#options.projectId ? { project_id: this.#options.projectId } : {}),
      ...(this.#options.limit ? { limit: this.#options.limit } : {}),
    }
    const read = async (params: ListChangesParams): Promise<ChangePage | null> => {
      try {
        return await this.#changes.list({ ...query, ...params }, signal ? { signal } : undefined)
      } catch (error) {
        if (signal?.aborted) return null
        throw error
      }
    }
    let params: ListChangesParams =
      this.#cursor === undefined
        ? this.#options.from === 'start'
          ? { from: 'start' }
          : {}
        : { cursor: this.#cursor, wait: this.#options.wait ?? 20 }
    while (!signal?.aborted) {
      const page = await read(params)
      if (!page) return
      for (const change of page.data) yield change
      // Moved once the page is done: a consumer that stops mid-page and resumes from `cursor`
      // gets the rest of that page again (the feed numbers pages, not single changes).
      this.#cursor = page.next_cursor
      params = { cursor: this.#cursor, wait: this.#options.wait ?? 20 }
    }
  }
}

/** The change feed (docs/changes.md): what changed since a cursor, oldest first. */
export class Changes {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /**
   * One read of the feed. Without `cursor` or `from: 'start'` it is empty with a `next_cursor`
   * at the current end; `next_cursor` is never null. With `wait`, a long poll.
   */
  list(params: ListChangesParams = {}, options?: RequestOptions): Promise<ChangePage> {
    return this.#transport.request({ method: 'GET', path: '/v1/changes', query: params, options })
  }

  /**
   * Follows the feed with long polls, yielding each change once, in order. Iterate with
   * `for await`; an expired cursor throws a `WorkgraphError` with code `cursor_expired`.
   */
  follow(options: FollowChangesOptions = {}): ChangeFollower {
    return new ChangeFollower(this, options)
  }
}
