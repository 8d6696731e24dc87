import type { BodyOf, ListParams, Person } from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport, WriteAnswer, WriteOptions } from '../transport.ts'
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

  /** Changes a person's role (owners and admins; only an owner grants or takes away admin). */
  update<O extends WriteOptions = WriteOptions>(
    id: string,
    body: BodyOf<'updatePerson'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Person>> {
    return this.#transport.request({
      method: 'PATCH',
      path: pathOf`/v1/people/${id}`,
      body,
      write: options,
    })
  }

  /** Deactivates a person: their sign-in, sessions, keys and app grants end at once. */
  deactivate<O extends WriteOptions = WriteOptions>(
    id: string,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Person>> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/people/${id}/deactivate`,
      write: options,
    })
  }

  /** Reactivates a deactivated person: they may sign in again. */
  reactivate<O extends WriteOptions = WriteOptions>(
    id: string,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Person>> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/people/${id}/reactivate`,
      write: options,
    })
  }
}
