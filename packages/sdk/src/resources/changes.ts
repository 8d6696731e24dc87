import type { Change, ChangePage, ListParams } from '../api-types.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport } from '../transport.ts'

/** The query of one read of the feed, as the API spells it (`types` is a comma-separated list). */
export type ListChangesParams = ListParams<'listChanges'> & { cursor?: string }

/**
 * What `follow` selects and where it begins: the query of `list` (`types`, `project_id`, `limit`,
 * `wait` for each long poll, default 20), with `from: 'start'` for the oldest retained first and
 * `cursor` to resume after an earlier follower's (which wins over `from`).
 */
export type FollowChangesParams = ListChangesParams

/**
 * A running follow of the feed: an async iterable of changes. `cursor` is the position after the
 * last answer consumed whole (and past hidden changes): store it to resume later with
 * `follow({ cursor })`.
 */
export class ChangeFollower implements AsyncIterable<Change> {
  readonly #changes: Changes
  readonly #params: FollowChangesParams
  readonly #signal: AbortSignal | undefined
  #cursor: string | undefined

  constructor(changes: Changes, params: FollowChangesParams, options: RequestOptions) {
    this.#changes = changes
    this.#params = params
    this.#signal = options.signal
    this.#cursor = params.cursor
  }

  /** The position to resume from; undefined until the first answer when following from now. */
  get cursor(): string | undefined {
    return this.#cursor
  }

  /** Each change once, in order, long-polling for more; ends without an error when aborted. */
  async *[Symbol.asyncIterator](): AsyncIterator<Change> {
    const signal = this.#signal
    const { cursor: _start, from, wait = 20, ...query } = this.#params
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
        ? from === 'start'
          ? { from: 'start' }
          : {}
        : { cursor: this.#cursor, wait }
    while (!signal?.aborted) {
      const page = await read(params)
      if (!page) return
      for (const change of page.data) yield change
      // Moved once the page is done: a consumer that stops mid-page and resumes from `cursor`
      // gets the rest of that page again (the feed numbers pages, not single changes).
      this.#cursor = page.next_cursor
      params = { cursor: this.#cursor, wait }
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
  list(
    params: ListChangesParams = {},
    options?: RequestOptions,
  ): Promise<WithResponse<ChangePage>> {
    return this.#transport.request({ method: 'GET', path: '/v1/changes', query: params, options })
  }

  /**
   * Follows the feed with long polls, yielding each change once, in order. Iterate with
   * `for await`; an expired cursor throws a WorkgraphError with code `cursor_expired`;
   * `options.signal` ends the iteration (without an error).
   */
  follow(params: FollowChangesParams = {}, options: RequestOptions = {}): ChangeFollower {
    return new ChangeFollower(this, params, options)
  }
}
