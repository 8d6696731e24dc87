import type { DryRun } from './api-types.ts'
import { ConnectionError, errorOfAnswer } from './errors.ts'
import { newIdempotencyKey } from './idempotency-key.ts'
import { readResponseMeta, type WithResponse, withResponse } from './response-meta.ts'
import { backoffMs, isRetryableAnswer, type RetryOptions, retryAfterMs } from './retry-policy.ts'

/** A bearer token, or a function that returns the current one (asked before every try). */
export type TokenSource = string | (() => string | Promise<string>)

/** What the transport needs to know of the client's options. */
export interface TransportOptions {
  baseUrl: string
  token: TokenSource | undefined
  fetch: typeof globalThis.fetch
  retries: RetryOptions
  timeoutMs: number
}

/** Options every call takes. */
export interface RequestOptions {
  /** Cancels the call, its retries and waits included. */
  signal?: AbortSignal
}

/** Options of a write. */
export interface WriteOptions extends RequestOptions {
  /** Makes retries safe across processes; one is generated (and reused by retries) if absent. */
  idempotencyKey?: string
  /**
   * `true`: the server checks the write and answers what it would do (`DryRun`), writing
   * nothing (docs/api.md, "Dry runs"). No Idempotency-Key is generated for it. It is sent as
   * the API's `dry_run` query parameter.
   */
  dryRun?: boolean
}

/** What a write method resolves to: the record, or with `dryRun: true` the dry run's answer. */
export type WriteAnswer<O extends WriteOptions, T> = WithResponse<
  O extends { dryRun: true } ? DryRun<T> : T
>

/** A query value: repeated parameters for arrays; undefined leaves the parameter out. */
export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined

/** An HTTP method the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** How a call authenticates. */
export type CallAuth =
  | 'bearer'
  | 'none'
  /** A confidential OAuth client's HTTP Basic authentication (client_secret_basic). */
  | { clientId: string; clientSecret: string }

/** One call of the API. */
export interface ApiRequest {
  method: HttpMethod
  path: string
  query?: Record<string, QueryValue> | undefined
  /** A JSON body. */
  body?: unknown
  /** An `application/x-www-form-urlencoded` body (the OAuth endpoints take these). */
  form?: Record<string, string | undefined> | undefined
  /** `bearer` (the default): the client's token. */
  auth?: CallAuth
  /** False for calls that must never be sent twice, such as an OAuth code exchange. */
  retry?: boolean
  /** Writes carry an Idempotency-Key, which is what makes retrying them safe. */
  write?: WriteOptions
  /** More request headers, sent as given. */
  headers?: Record<string, string> | undefined
  options?: RequestOptions | undefined
}

// Waits `ms`, or rejects as soon as `signal` aborts; leaves no listener behind either way.
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

// The answer's JSON; an empty body (such as OAuth revocation's) is an empty object.
async function jsonOf(response: Response): Promise<object> {
  const text = await response.text()
  return text.trim() === '' ? {} : (JSON.parse(text) as object)
}

// Base64 of a string's UTF-8 bytes, on any runtime (btoa takes only Latin-1).
function base64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)))
}

/**
 * Sends requests: authentication, JSON, idempotency keys, retries with backoff, errors, and the
 * response metadata every answer carries in `lastResponse`.
 */
export class Transport {
  readonly #options: TransportOptions

  constructor(options: TransportOptions) {
    this.#options = options
  }

  /** The server's base URL, as the client was given it. */
  get baseUrl(): string {
    return this.#options.baseUrl
  }

  /** Sends one call, retrying what is safe to retry, and returns the parsed JSON answer. */
  async request<T>(call: ApiRequest): Promise<WithResponse<T>> {
    const { retries } = this.#options
    const maxRetries = call.retry === false ? 0 : retries.maxRetries
    const signal = call.options?.signal ?? call.write?.signal
    // A dry run claims no key, so none is made up for it; one given is sent (and checked).
    const key =
      call.write && !call.write.dryRun
        ? (call.write.idempotencyKey ?? newIdempotencyKey())
        : call.write?.idempotencyKey
    for (let retry = 0; ; retry++) {
      const last = retry >= maxRetries
      let response: Response
      try {
        response = await this.#send(call, key, signal)
      } catch (error) {
        if (signal?.aborted) throw signal.reason
        if (last) throw new ConnectionError(`Could not reach ${this.#options.baseUrl}`, error)
        await sleep(backoffMs(retry), signal)
        continue
      }
      if (response.ok)
        return withResponse(await jsonOf(response), readResponseMeta(response, key)) as never
      const body = await response.json().catch(() => undefined)
      const error = errorOfAnswer(response.status, body, response.headers)
      if (last || !isRetryableAnswer(response.status, error.code)) throw error
      const asked = retryAfterMs(response.headers.get('retry-after'))
      if (asked !== undefined && asked > retries.maxRetryAfterMs) throw error
      await sleep(asked ?? backoffMs(retry), signal)
    }
  }

  async #send(call: ApiRequest, key: string | undefined, signal: AbortSignal | undefined) {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(await this.#authorization(call.auth ?? 'bearer')),
    }
    let body: string | undefined
    if (call.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      const form = Object.entries(call.form).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      )
      body = new URLSearchParams(form).toString()
    } else if (call.body !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(call.body)
    }
    if (key) headers['idempotency-key'] = key
    const timeout = AbortSignal.timeout(this.#options.timeoutMs)
    return this.#options.fetch(this.url(call.path, this.#query(call)), {
      method: call.method,
      headers: { ...headers, ...call.headers },
      body,
      signal: signal ? anySignal([signal, timeout]) : timeout,
    })
  }

  async #authorization(auth: CallAuth): Promise<Record<string, string>> {
    if (auth === 'none') return {}
    if (auth !== 'bearer') {
      // RFC 6749 2.3.1: each part is form-encoded before it is joined.
      const user = `${encodeURIComponent(auth.clientId)}:${encodeURIComponent(auth.clientSecret)}`
      return { authorization: `Basic ${base64(user)}` }
    }
    const { token } = this.#options
    if (token === undefined) return {}
    return { authorization: `Bearer ${typeof token === 'function' ? await token() : token}` }
  }

  #query(call: ApiRequest): Record<string, QueryValue> | undefined {
    return call.write?.dryRun ? { ...call.query, dry_run: true } : call.query
  }

  /** The absolute URL of a path of the API with its query. */
  url(path: string, query: Record<string, QueryValue> | undefined): string {
    const url = new URL(path.replace(/^\//, ''), `${this.#options.baseUrl.replace(/\/?$/, '/')}`)
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue
      for (const item of Array.isArray(value) ? value : [value])
        url.searchParams.append(name, String(item))
    }
    return url.toString()
  }
}

// AbortSignal.any where the runtime has it (it lets go of its listeners); Node 18 lacks it.
function anySignal(signals: AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals)
  const controller = new AbortController()
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason)
      break
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true })
  }
  return controller.signal
}
