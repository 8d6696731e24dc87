import type { ActivityEntry, ListParams } from '../api-types.ts'
import { PagedList } from '../pages.ts'
import type { RequestOptions, Transport } from '../transport.ts'

/** The activity stream, filtered to what the token may open. */
export class Activity {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Activity entries, newest first; `project_id` keeps one project's. */
  list(
    params: ListParams<'listActivity'> = {},
    options?: RequestOptions,
  ): PagedList<ActivityEntry> {
    return new PagedList((cursor) =>
      this.#transport.request({
        method: 'GET',
        path: '/v1/activity',
        query: { ...params, cursor },
        options,
      }),
    )
  }
}
