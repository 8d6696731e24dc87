import type {
  Access,
  AnyRecord,
  Comment,
  CompactSummary,
  Link,
  ListParams,
  Summary,
} from '../api-types.ts'
import { PagedList } from '../pages.ts'
import type { RequestOptions, Transport } from '../transport.ts'
import { pathOf } from './path.ts'

/** Options of `wg.resources.summary`. */
export interface SummaryOptions extends RequestOptions {
  /** The summary's token budget (o200k_base), 100 or more; the server's default otherwise. */
  maxTokens?: number
  /** `compact`: each source once, as its id, for a model to read; `full` (the default). */
  format?: 'full' | 'compact'
}

/** Options of `wg.resources.access`. */
export interface AccessOptions extends RequestOptions {
  /** Ask about this person instead (owners and admins, for what they may open themselves). */
  personId?: string
}

/** Any resource by id: its record, neighbours, comments and a cited summary. */
export class Resources {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Any record by id; a resource the token cannot open is a 404 `not_found`. */
  get(id: string, options?: RequestOptions): Promise<AnyRecord> {
    return this.#transport.request({ method: 'GET', path: pathOf`/v1/resources/${id}`, options })
  }

  /**
   * Why the resource is open to the caller (or to `personId`): every reason, such as
   * `team_member` via a team or `assignee`. A resource the token cannot open is a 404.
   */
  access(id: string, options: AccessOptions = {}): Promise<Access> {
    return this.#transport.request({
      method: 'GET',
      path: pathOf`/v1/resources/${id}/access`,
      query: { person_id: options.personId },
      options,
    })
  }

  /** A cited digest of a resource that fits `maxTokens`, for an LLM's context window. */
  summary(id: string, options: SummaryOptions & { format: 'compact' }): Promise<CompactSummary>
  summary(id: string, options?: SummaryOptions): Promise<Summary>
  summary(id: string, options: SummaryOptions = {}): Promise<Summary | CompactSummary> {
    return this.#transport.request({
      method: 'GET',
      path: pathOf`/v1/resources/${id}/summary`,
      query: { max_tokens: options.maxTokens, format: options.format },
      options,
    })
  }

  /** The neighbours of a resource that the token may open. */
  links(
    id: string,
    params: ListParams<'listResourceLinks'> = {},
    options?: RequestOptions,
  ): PagedList<Link> {
    return new PagedList((cursor) =>
      this.#transport.request({
        method: 'GET',
        path: pathOf`/v1/resources/${id}/links`,
        query: { ...params, cursor },
        options,
      }),
    )
  }

  /** The comments on a resource, oldest first. */
  comments(
    id: string,
    params: ListParams<'listResourceComments'> = {},
    options?: RequestOptions,
  ): PagedList<Comment> {
    return new PagedList((cursor) =>
      this.#transport.request({
        method: 'GET',
        path: pathOf`/v1/resources/${id}/comments`,
        query: { ...params, cursor },
        options,
      }),
    )
  }
}
