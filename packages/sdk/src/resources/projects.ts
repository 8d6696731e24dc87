import type { ActivityEntry, BodyOf, ListParams, Project } from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport, WriteAnswer, WriteOptions } from '../transport.ts'
import { pagedList } from './list.ts'
import { pathOf } from './path.ts'
import { recordOf } from './record.ts'

/** Projects the token may open, each one's activity, and the writes that shape them. */
export class Projects {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Projects the token may open, newest first. */
  list(params: ListParams<'listProjects'> = {}, options?: RequestOptions): PagedList<Project> {
    return pagedList(this.#transport, '/v1/projects', params, options)
  }

  /** One project; an id the token may not open, or of another kind, is a NotFoundError. */
  get(id: string, options?: RequestOptions): Promise<WithResponse<Project>> {
    return recordOf(this.#transport, 'project', id, options)
  }

  /** A project's activity and that of what belongs to it, newest first. */
  activity(
    id: string,
    params: ListParams<'listProjectActivity'> = {},
    options?: RequestOptions,
  ): PagedList<ActivityEntry> {
    return pagedList(this.#transport, pathOf`/v1/projects/${id}/activity`, params, options)
  }

  /** Creates a project: the token's person owns it and is its first member. */
  create<O extends WriteOptions = WriteOptions>(
    body: BodyOf<'createProject'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Project>> {
    return this.#transport.request({ method: 'POST', path: '/v1/projects', body, write: options })
  }

  /** Changes a project's name, description, status, visibility or owner. */
  update<O extends WriteOptions = WriteOptions>(
    id: string,
    body: BodyOf<'updateProject'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Project>> {
    return this.#transport.request({
      method: 'PATCH',
      path: pathOf`/v1/projects/${id}`,
      body,
      write: options,
    })
  }

  /** Adds a person, team or integration to a project (how a private project is shared). */
  addMember<O extends WriteOptions = WriteOptions>(
    id: string,
    body: BodyOf<'addProjectMember'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Project>> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/projects/${id}/members`,
      body,
      write: options,
    })
  }

  /** Removes a direct member (a person, team or integration) from a project. */
  removeMember<O extends WriteOptions = WriteOptions>(
    id: string,
    memberId: string,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Project>> {
    return this.#transport.request({
      method: 'DELETE',
      path: pathOf`/v1/projects/${id}/members/${memberId}`,
      write: options,
    })
  }
}
