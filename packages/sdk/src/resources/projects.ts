import type { ActivityEntry, ListParams, Project } from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport } from '../transport.ts'
import { pagedList } from './list.ts'
import { pathOf } from './path.ts'
import { recordOf } from './record.ts'

/** Projects the token may open, and each one's activity. */
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
}
