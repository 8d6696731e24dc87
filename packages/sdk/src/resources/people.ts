import type { ListParams, Person } from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport } from '../transport.ts'
import { pagedList } from './list.ts'
import { pathOf } from './path.ts'

/** People of the workspace. */
export class People {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** People of the workspace; `team_id` keeps a team's members. */
  list(params: ListParams<'listPeople'> = {}, options?: RequestOptions): PagedList<Person> {
    return pagedList(this.#transport, '/v1/people', params, options)
  }

  /** One person. */
  get(id: string, options?: RequestOptions): Promise<WithResponse<Person>> {
    return this.#transport.request({ method: 'GET', path: pathOf`/v1/people/${id}`, options })
  }
}
