import type { ListParams, Person, Team, Workspace } from '../api-types.ts'
import { PagedList } from '../pages.ts'
import type { RequestOptions, Transport } from '../transport.ts'
import { pathOf } from './path.ts'

/** The workspace, and the people and teams the token can see. */
export class Directory {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** The workspace the token belongs to. */
  workspace(options?: RequestOptions): Promise<Workspace> {
    return this.#transport.request({ method: 'GET', path: '/v1/workspace', options })
  }

  /** People of the workspace. */
  people(params: ListParams<'listPeople'> = {}, options?: RequestOptions): PagedList<Person> {
    return new PagedList((cursor) =>
      this.#transport.request({
        method: 'GET',
        path: '/v1/people',
        query: { ...params, cursor },
        options,
      }),
    )
  }

  /** One person. */
  person(id: string, options?: RequestOptions): Promise<Person> {
    return this.#transport.request({ method: 'GET', path: pathOf`/v1/people/${id}`, options })
  }

  /** Teams of the workspace. */
  teams(params: ListParams<'listTeams'> = {}, options?: RequestOptions): PagedList<Team> {
    return new PagedList((cursor) =>
      this.#transport.request({
        method: 'GET',
        path: '/v1/teams',
        query: { ...params, cursor },
        options,
      }),
    )
  }
}
