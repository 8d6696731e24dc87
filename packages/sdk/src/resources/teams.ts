import type { BodyOf, ListParams, Team } from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport, WriteAnswer, WriteOptions } from '../transport.ts'
import { pagedList } from './list.ts'
import { pathOf } from './path.ts'
import { recordOf } from './record.ts'

/** Teams of the workspace, and the writes that shape them. */
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

  /** Creates a team, with its first members (owners and admins). */
  create<O extends WriteOptions = WriteOptions>(
    body: BodyOf<'createTeam'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Team>> {
    return this.#transport.request({ method: 'POST', path: '/v1/teams', body, write: options })
  }

  /** Renames a team. */
  update<O extends WriteOptions = WriteOptions>(
    id: string,
    body: BodyOf<'updateTeam'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Team>> {
    return this.#transport.request({
      method: 'PATCH',
      path: pathOf`/v1/teams/${id}`,
      body,
      write: options,
    })
  }

  /** Adds a person to a team. */
  addMember<O extends WriteOptions = WriteOptions>(
    id: string,
    body: BodyOf<'addTeamMember'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Team>> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/teams/${id}/members`,
      body,
      write: options,
    })
  }

  /** Removes a person from a team. */
  removeMember<O extends WriteOptions = WriteOptions>(
    id: string,
    personId: string,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Team>> {
    return this.#transport.request({
      method: 'DELETE',
      path: pathOf`/v1/teams/${id}/members/${personId}`,
      write: options,
    })
  }
}
