import type { DryRun } from './api-types.ts'
import { WorkgraphConnectionError, WorkgraphError } from './errors.ts'
import { newIdempotencyKey } from './idempotency-key.ts'
import { backoffMs, isRetryableAnswer, type RetryOptions, retryAfterMs } from './retry-policy.ts'

/** A bearer token, or a function that returns the current one (asked before every try). */
export type TokenSource = string | (() => string | Promise<string>)

/** What the transport needs to know of the client's options. */
export interface TransportOptions {
  baseUrl: string
  token: TokenSource
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
   * nothing (docs/api.md, "Dry runs"). No Idempotency-Key is generated for it.
   */
  dryRun?: boolean
}

/** What a write method resolves to: the record, or with `dryRun: true` the dry run's answer. */
export type WriteAnswer<O extends WriteOptions, T> = O extends { dryRun: true } ? DryRun<T> : T

/** A query value: repeated parameters for arrays; undefined leaves the parameter out. */
export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined

/** One call of the API. */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  path: string
  query?: Record<string, QueryValue>
  body?: unknown
  /** Writes carry an Idempotency-Key, which is what makes retrying them safe. */
  write?: WriteOptions
  options?: RequestOptions
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

/** Sends requests: authentication, JSON, idempotency keys, retries with backoff and errors. */
export class Transport {
  readonly #options: TransportOptions

  constructor(options: TransportOptions) {
    this.#options = options
  }

  /** Sends one call, retrying what is safe to retry, and returns the parsed JSON answer. */
  async request<T>(call: ApiRequest): Promise<T> {
    const { retries } = this.#options
    const signal = call.options?.signal ?? call.write?.signal
    // A dry run claims no key, so none is made up for it; one given is sent (and checked).
    const key =
      call.write && !call.write.dryRun
        ? (call.write.idempotencyKey ?? newIdempotencyKey())
        : call.write?.idempotencyKey
    for (let retry = 0; ; retry++) {
      const last = retry >= retries.maxRetries
      let response: Response
      try {
        response = await this.#send(call, key, signal)
      } catch (error) {
        if (signal?.aborted) throw signal.reason
        if (last)
          throw new WorkgraphConnectionError(`Could not reach ${this.#options.baseUrl}`, {
            cause: error,
          })
        await sleep(backoffMs(retry), signal)
        continue
      }
      if (response.ok) return (await response.json()) as T
      const body = await response.json().catch(() => undefined)
      const error = new WorkgraphError(
        response.status,
        body,
        response.headers.get('x-request-id') ?? undefined,
      )
      if (last || !isRetryableAnswer(error.status, error.code)) throw error
      const asked = retryAfterMs(response.headers.get('retry-after'))
      if (asked !== undefined && asked > retries.maxRetryAfterMs) throw error
      await sleep(asked ?? backoffMs(retry), signal)
    }
  }

  async #send(call: ApiRequest, key: string | undefined, signal: AbortSignal | undefined) {
    const { token } = this.#options
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${typeof token === 'function' ? await token() : token}`,
    }
    if (call.body !== undefined) headers['content-type'] = 'application/json'
    if (key) headers['idempotency-key'] = key
    const timeout = AbortSignal.timeout(this.#options.timeoutMs)
    return this.#options.fetch(this.#url(call), {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: signal ? anySignal([signal, timeout]) : timeout,
    })
  }

  #url(call: ApiRequest): string {
    const url = new URL(
      call.path.replace(/^\//, ''),
      `${this.#options.baseUrl.replace(/\/?$/, '/')}`,
    )
    const query = call.write?.dryRun ? { ...call.query, dry_run: true } : call.query
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
