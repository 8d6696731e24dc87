import type {
  Access,
  AnyRecord,
  Comment,
  CompactSummary,
  Link,
  ListParams,
  QueryOf,
  Summary,
} from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport } from '../transport.ts'
import { pagedList } from './list.ts'
import { pathOf } from './path.ts'

/** Any resource by id: its record, neighbours, comments, a cited summary and why it is open. */
export class Resources {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /**
   * Any record by id, told apart by `type`; a resource the token cannot open is a NotFoundError.
   * `wg.tasks.get(id)` and the like give one kind's record type.
   */
  get(id: string, options?: RequestOptions): Promise<WithResponse<AnyRecord>> {
    return this.#transport.request({ method: 'GET', path: pathOf`/v1/resources/${id}`, options })
  }

  /**
   * Why the resource is open to the caller (or to `person_id`): every reason, such as
   * `team_member` via a team or `assignee`. A resource the token cannot open is a 404.
   */
  access(
    id: string,
    params: QueryOf<'getResourceAccess'> = {},
    options?: RequestOptions,
  ): Promise<WithResponse<Access>> {
    return this.#transport.request({
      method: 'GET',
      path: pathOf`/v1/resources/${id}/access`,
      query: params,
      options,
    })
  }

  /**
   * A cited digest of a resource that fits `max_tokens`, for an LLM's context window;
   * `format: 'compact'` gives each source once, as its id.
   */
  summary(
    id: string,
    params: QueryOf<'getResourceSummary'> & { format: 'compact' },
    options?: RequestOptions,
  ): Promise<WithResponse<CompactSummary>>
  summary(
    id: string,
    params?: QueryOf<'getResourceSummary'>,
    options?: RequestOptions,
  ): Promise<WithResponse<Summary>>
  summary(
    id: string,
    params: QueryOf<'getResourceSummary'> = {},
    options?: RequestOptions,
  ): Promise<WithResponse<Summary | CompactSummary>> {
    return this.#transport.request({
      method: 'GET',
      path: pathOf`/v1/resources/${id}/summary`,
      query: params,
      options,
    })
  }

  /** The neighbours of a resource that the token may open. */
  links(
    id: string,
    params: ListParams<'listResourceLinks'> = {},
    options?: RequestOptions,
  ): PagedList<Link> {
    return pagedList(this.#transport, pathOf`/v1/resources/${id}/links`, params, options)
  }

  /** The comments on a resource, oldest first. */
  comments(
    id: string,
    params: ListParams<'listResourceComments'> = {},
    options?: RequestOptions,
  ): PagedList<Comment> {
    return pagedList(this.#transport, pathOf`/v1/resources/${id}/comments`, params, options)
  }
}
