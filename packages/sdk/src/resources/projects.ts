import type { ListParams, Project } from '../api-types.ts'
import { PagedList } from '../pages.ts'
import type { RequestOptions, Transport } from '../transport.ts'

/** Projects the token may open. */
export class Projects {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Projects the token may open, newest first. */
  list(params: ListParams<'listProjects'> = {}, options?: RequestOptions): PagedList<Project> {
    return new PagedList((cursor) =>
      this.#transport.request({
        method: 'GET',
        path: '/v1/projects',
        query: { ...params, cursor },
        options,
      }),
    )
  }
}
