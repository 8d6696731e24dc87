import type { ActivityEntry, ListParams } from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { RequestOptions, Transport } from '../transport.ts'
import { pagedList } from './list.ts'

/** The activity stream, filtered to what the token may open. */
export class Activity {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Activity entries, newest first; `project_id` keeps one project's, `verbs` some verbs. */
  list(
    params: ListParams<'listActivity'> = {},
    options?: RequestOptions,
  ): PagedList<ActivityEntry> {
    return pagedList(this.#transport, '/v1/activity', params, options)
  }
}
