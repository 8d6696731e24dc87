import type { BodyOf, CompactSummary, ListParams, SearchResult, Summary } from './api-types.ts'
import { Activity } from './resources/activity.ts'
import { Canvases } from './resources/canvases.ts'
import { Changes } from './resources/changes.ts'
import { Comments } from './resources/comments.ts'
import { Directory } from './resources/directory.ts'
import { Okrs } from './resources/okrs.ts'
import { Projects } from './resources/projects.ts'
import { Resources } from './resources/resources.ts'
import { Tasks } from './resources/tasks.ts'
import { Webhooks } from './resources/webhooks.ts'
import { DEFAULT_RETRIES } from './retry-policy.ts'
import { type RequestOptions, type TokenSource, Transport } from './transport.ts'

/** How to reach the API. */
export interface WorkgraphOptions {
  /**
   * An API key (`wg_key_…`), workspace token, OAuth access token, or a function returning the
   * current one (called before every try, so a refreshed token is picked up).
   */
  apiKey: TokenSource
  /** The server, such as `https://workgraph.example.com` (no `/v1`). */
  baseUrl: string
  /** Retries after the first try of a call (default 3; 0 turns them off). */
  maxRetries?: number
  /** The longest `Retry-After` (ms) waited for; a longer one throws at once (default 60 s). */
  maxRetryAfterMs?: number
  /** Each try's time limit in ms (default 30 s). */
  timeoutMs?: number
  /** A fetch to use instead of the global one (for proxies or tests). */
  fetch?: typeof globalThis.fetch
}

/** The Workgraph API client. */
export class Workgraph {
  /** Tasks: list, create, complete. */
  readonly tasks: Tasks
  /** Projects. */
  readonly projects: Projects
  /** Canvases' metadata. */
  readonly canvases: Canvases
  /** Comments. */
  readonly comments: Comments
  /** Objectives, key results and check-ins. */
  readonly okrs: Okrs
  /** The activity stream. */
  readonly activity: Activity
  /** The change feed: what changed since a cursor, followed with long polls. */
  readonly changes: Changes
  /** Any resource by id: record, links, comments, summary. */
  readonly resources: Resources
  /** The workspace, people and teams. */
  readonly directory: Directory
  /** Webhook endpoints and deliveries. */
  readonly webhooks: Webhooks
  readonly #transport: Transport

  constructor(options: WorkgraphOptions) {
    const fetch = options.fetch ?? globalThis.fetch
    if (!fetch) throw new TypeError('No fetch: pass options.fetch on runtimes without one')
    if (!options.apiKey) throw new TypeError('options.apiKey is required')
    this.#transport = new Transport({
      baseUrl: options.baseUrl,
      token: options.apiKey,
      fetch: fetch.bind(globalThis),
      retries: {
        maxRetries: options.maxRetries ?? DEFAULT_RETRIES.maxRetries,
        maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_RETRIES.maxRetryAfterMs,
      },
      timeoutMs: options.timeoutMs ?? 30_000,
    })
    this.tasks = new Tasks(this.#transport)
    this.projects = new Projects(this.#transport)
    this.canvases = new Canvases(this.#transport)
    this.comments = new Comments(this.#transport)
    this.okrs = new Okrs(this.#transport)
    this.activity = new Activity(this.#transport)
    this.changes = new Changes(this.#transport)
    this.resources = new Resources(this.#transport)
    this.directory = new Directory(this.#transport)
    this.webhooks = new Webhooks(this.#transport)
  }

  /**
   * What needs attention (overdue, blocked and due-soon tasks, objectives behind, what changed
   * since a time), most pressing first, as a cited summary: `for` is `me` (the default for a
   * person's token), `workspace`, or a person, project or team id; `format: 'compact'` gives
   * each source once, as its id.
   */
  attention(
    params: ListParams<'getAttention'> & { format: 'compact' },
    options?: RequestOptions,
  ): Promise<CompactSummary>
  attention(params?: ListParams<'getAttention'>, options?: RequestOptions): Promise<Summary>
  attention(
    params: ListParams<'getAttention'> = {},
    options?: RequestOptions,
  ): Promise<Summary | CompactSummary> {
    return this.#transport.request({ method: 'GET', path: '/v1/attention', query: params, options })
  }

  /** Ranked search over what the token may open, within a token budget; a read, safe to retry. */
  search(body: BodyOf<'search'>, options?: RequestOptions): Promise<SearchResult> {
    return this.#transport.request({ method: 'POST', path: '/v1/search', body, options })
  }
}
