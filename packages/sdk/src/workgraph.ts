import type { BodyOf, CompactSummary, ListParams, SearchResult, Summary } from './api-types.ts'
import { Activity } from './resources/activity.ts'
import { ApiKeys } from './resources/api-keys.ts'
import { Audit } from './resources/audit.ts'
import { Canvases } from './resources/canvases.ts'
import { Changes } from './resources/changes.ts'
import { Comments } from './resources/comments.ts'
import { Health } from './resources/health.ts'
import { Invitations } from './resources/invitations.ts'
import { MeResource } from './resources/me.ts'
import { OAuth } from './resources/oauth.ts'
import { OAuthGrants } from './resources/oauth-grants.ts'
import { Okrs } from './resources/okrs.ts'
import { People } from './resources/people.ts'
import { Projects } from './resources/projects.ts'
import { Resources } from './resources/resources.ts'
import { Tasks } from './resources/tasks.ts'
import { Teams } from './resources/teams.ts'
import { Tokens } from './resources/tokens.ts'
import { Webhooks } from './resources/webhooks.ts'
import { WorkspaceResource } from './resources/workspace.ts'
import type { WithResponse } from './response-meta.ts'
import { DEFAULT_RETRIES } from './retry-policy.ts'
import {
  type HttpMethod,
  type QueryValue,
  type RequestOptions,
  type TokenSource,
  Transport,
} from './transport.ts'

/** How to reach the API. */
export interface WorkgraphOptions {
  /**
   * An API key (`wg_key_…`), workspace token, OAuth access token, or a function returning the
   * current one (called before every try, so a refreshed token is picked up). Leave it out only
   * for what needs no token: `wg.oauth` and `wg.health`.
   */
  apiKey?: TokenSource
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

/** A call of `wg.request`: any operation of the API, by method and path. */
export interface RawRequest extends RequestOptions {
  /** The HTTP method. */
  method: HttpMethod
  /** The path, such as `/v1/tasks` (ids escaped by you). */
  path: string
  /** Query parameters as the API spells them; arrays repeat the parameter. */
  query?: Record<string, QueryValue>
  /** A JSON body. */
  body?: unknown
  /**
   * The Idempotency-Key of a POST, PATCH or DELETE; one is generated (and reused by retries)
   * when absent, as for every write of the SDK.
   */
  idempotencyKey?: string
  /** More request headers, sent as given. */
  headers?: Record<string, string>
}

/** The Workgraph API client. */
export class Workgraph {
  /** Tasks: list, get, create, update, complete. */
  readonly tasks: Tasks
  /** Projects, and each one's activity. */
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
  /** Any resource by id: record, links, comments, summary, access reasons. */
  readonly resources: Resources
  /** The workspace the token belongs to. */
  readonly workspace: WorkspaceResource
  /** Who the token acts as, and what it may do. */
  readonly me: MeResource
  /** People of the workspace. */
  readonly people: People
  /** Invitations to the workspace. */
  readonly invitations: Invitations
  /** Teams of the workspace. */
  readonly teams: Teams
  /** API keys and workspace tokens: list and revoke. */
  readonly tokens: Tokens
  /** API keys: issue and rotate. */
  readonly apiKeys: ApiKeys
  /** The audit log. */
  readonly audit: Audit
  /** OAuth grants: which app may act for whom; list and revoke. */
  readonly oauthGrants: OAuthGrants
  /** The OAuth authorization server: authorization URL, token exchange, refresh, revocation. */
  readonly oauth: OAuth
  /** Webhook endpoints and deliveries. */
  readonly webhooks: Webhooks
  /** The server's liveness and readiness. */
  readonly health: Health
  readonly #transport: Transport

  constructor(options: WorkgraphOptions) {
    const fetch = options.fetch ?? globalThis.fetch
    if (!fetch) throw new TypeError('No fetch: pass options.fetch on runtimes without one')
    // An empty key is a variable that was not set, not a deliberate call without a token.
    if (options.apiKey === '') throw new TypeError('options.apiKey is empty')
    if (!options.baseUrl) throw new TypeError('options.baseUrl is required')
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
    this.workspace = new WorkspaceResource(this.#transport)
    this.me = new MeResource(this.#transport)
    this.people = new People(this.#transport)
    this.invitations = new Invitations(this.#transport)
    this.teams = new Teams(this.#transport)
    this.tokens = new Tokens(this.#transport)
    this.apiKeys = new ApiKeys(this.#transport)
    this.audit = new Audit(this.#transport)
    this.oauthGrants = new OAuthGrants(this.#transport)
    this.oauth = new OAuth(this.#transport)
    this.webhooks = new Webhooks(this.#transport)
    this.health = new Health(this.#transport)
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
  ): Promise<WithResponse<CompactSummary>>
  attention(
    params?: ListParams<'getAttention'>,
    options?: RequestOptions,
  ): Promise<WithResponse<Summary>>
  attention(
    params: ListParams<'getAttention'> = {},
    options?: RequestOptions,
  ): Promise<WithResponse<Summary | CompactSummary>> {
    return this.#transport.request({ method: 'GET', path: '/v1/attention', query: params, options })
  }

  /** Ranked search over what the token may open, within a token budget; a read, safe to retry. */
  search(body: BodyOf<'search'>, options?: RequestOptions): Promise<WithResponse<SearchResult>> {
    return this.#transport.request({ method: 'POST', path: '/v1/search', body, options })
  }

  /**
   * Any call of the API by method and path, through the same transport as every method:
   * authentication, retries, idempotency keys for writes, errors, and `lastResponse`. For an
   * operation the SDK has no method for yet; the answer is the parsed JSON, typed by you.
   */
  request<T = unknown>(call: RawRequest): Promise<WithResponse<T>> {
    const { method, path, query, body, idempotencyKey, headers, signal } = call
    const isWrite = method !== 'GET'
    return this.#transport.request<T>({
      method,
      path,
      query,
      body,
      headers,
      options: signal ? { signal } : undefined,
      ...(isWrite ? { write: idempotencyKey ? { idempotencyKey } : {} } : {}),
    })
  }
}
