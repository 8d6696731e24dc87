import { performance } from 'node:perf_hooks'
import { type Dispatcher, request } from 'undici'

/** At most this much of a response is read and logged; the rest is never downloaded. */
const RESPONSE_LOG_BYTES = 64 * 1024

/** One attempt's deadline, connection to last byte read. */
export const ATTEMPT_TIMEOUT_MS = 15_000

/** What one POST to a receiver came to. */
export interface SendResult {
  /** The HTTP status, or null when no response arrived. */
  status: number | null
  /** The first 64 KiB of the response body, decoded as UTF-8. */
  responseBody: string | null
  retryAfter: string | null
  /** Why the attempt failed, or null on a 2xx. */
  errorKind: string | null
  durationMs: number
}

/**
 * POSTs one signed body through the guarded dispatcher. Redirects are never followed (undici's
 * `request` has no redirect handling unless asked), at most 64 KiB of the answer is read before the
 * socket is closed, and the whole exchange is bounded by the deadline. Never throws.
 */
export async function sendDelivery(
  dispatcher: Dispatcher,
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number = ATTEMPT_TIMEOUT_MS,
): Promise<SendResult> {
  const started = performance.now()
  const signal = AbortSignal.timeout(timeoutMs)
  const elapsed = () => Math.round(performance.now() - started)
  try {
    const response = await request(url, {
      method: 'POST',
      headers,
      body,
      dispatcher,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    })
    const responseBody = await readLimited(response.body, RESPONSE_LOG_BYTES)
    const status = response.statusCode
    const retryAfter = response.headers['retry-after']
    return {
      status,
      responseBody,
      retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
      errorKind: status >= 200 && status < 300 ? null : status < 400 ? 'redirect' : 'http_status',
      durationMs: elapsed(),
    }
  } catch (error) {
    return {
      status: null,
      responseBody: null,
      retryAfter: null,
      errorKind: signal.aborted ? 'timeout' : errorKindOf(error),
      durationMs: elapsed(),
    }
  }
}

// Reads up to `limit` bytes, then drops the connection rather than draining a huge answer.
async function readLimited(body: Dispatcher.ResponseData['body'], limit: number): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    const buffer = chunk as Buffer
    chunks.push(buffer.subarray(0, limit - size))
    size += Math.min(buffer.length, limit - size)
    if (size >= limit) {
      body.destroy()
      break
    }
  }
  return Buffer.concat(chunks).toString('utf8')
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
])

/** A stable, coarse name for a network failure: logged per attempt, never an internal detail. */
function errorKindOf(error: unknown): string {
  const codes = codesOf(error)
  const has = (test: (code: string) => boolean) => codes.some(test)
  if (has((code) => code === 'ERR_DESTINATION_NOT_ALLOWED')) return 'destination_not_allowed'
  if (has((code) => TIMEOUT_CODES.has(code))) return 'timeout'
  if (has((code) => code === 'ENOTFOUND' || code === 'EAI_AGAIN')) return 'dns_error'
  if (has((code) => code === 'ECONNREFUSED')) return 'connection_refused'
  if (has((code) => /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))) return 'tls_error'
  if (has((code) => ['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE'].includes(code)))
    return 'connection_reset'
  return 'network_error'
}

// undici wraps connect errors: the telling code may sit on the error or on any of its causes.
function codesOf(error: unknown): string[] {
  const codes: string[] = []
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') codes.push(code)
    current = (current as { cause?: unknown }).cause
  }
  return codes
}
