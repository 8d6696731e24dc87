import type { ListParams, Team } from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport } from '../transport.ts'
import { pagedList } from './list.ts'
import { recordOf } from './record.ts'

/** Teams of the workspace. */
export class Teams {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Teams of the workspace. */
  list(params: ListParams<'listTeams'> = {}, options?: RequestOptions): PagedList<Team> {
    return pagedList(this.#transport, '/v1/teams', params, options)
  }

  /** One team; an id of another kind is a NotFoundError. */
  get(id: string, options?: RequestOptions): Promise<WithResponse<Team>> {
    return recordOf(this.#transport, 'team', id, options)
  }
}
