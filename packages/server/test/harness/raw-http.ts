import { connect } from 'node:net'

/** A response read off a raw socket: what Node's HTTP parser would hide from `inject` and fetch. */
export interface RawResponse {
  status: number
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>
  body: string
  /** The server closed the connection after the response (always so when it said it would). */
  closed: boolean
}

/**
 * Writes `request` byte for byte to a fresh connection and reads one response: up to its
 * Content-Length, or to the close (`head`: no body follows). Rejects when nothing complete arrives within `timeoutMs`, so a
 * request the server leaves hanging fails the test instead of stalling it.
 */
export function rawRequest(
  port: number,
  request: string | Buffer,
  options: { timeoutMs?: number; head?: boolean } = {},
): Promise<RawResponse> {
  const { timeoutMs = 5000, head = false } = options
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' })
    let received = Buffer.alloc(0)
    let settled = false
    const finish = (closed: boolean) => {
      const parsed = parseResponse(received, closed, head)
      if (!parsed && !closed) return
      // A response that announces the close is complete only when the connection is closed.
      if (parsed && !closed && parsed.headers.connection === 'close') return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      if (parsed) resolve(parsed)
      else
        reject(
          new Error(`connection closed without a response: ${JSON.stringify(String(received))}`),
        )
    }
    const timer = setTimeout(() => {
      if (settled) return
      settled = true
      socket.destroy()
      reject(
        new Error(`no complete response in ${timeoutMs} ms: ${JSON.stringify(String(received))}`),
      )
    }, timeoutMs)
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk])
      if (!settled) finish(false)
    })
    socket.on('close', () => {
      if (!settled) finish(true)
    })
    // A reset after a complete answer is the server refusing the rest of what was sent.
    socket.on('error', () => undefined)
    socket.write(request)
  })
}

function parseResponse(bytes: Buffer, closed: boolean, head: boolean): RawResponse | null {
  const end = bytes.indexOf('\r\n\r\n')
  if (end < 0) return null
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n')
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1])
  if (!status) return null
  // An interim answer (100 Continue) precedes the real one.
  if (status < 200) return parseResponse(bytes.subarray(end + 4), closed, head)
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const at = line.indexOf(':')
    const name = line.slice(0, at).trim().toLowerCase()
    const value = line.slice(at + 1).trim()
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
  }
  const rest = bytes.subarray(end + 4)
  if (head) return { status, headers, body: '', closed }
  const length = headers['content-length']
  if (length !== undefined) {
    if (rest.length < Number(length)) return null
    return { status, headers, body: rest.subarray(0, Number(length)).toString('utf8'), closed }
  }
  if (headers['transfer-encoding'] === 'chunked') {
    const body = dechunk(rest)
    return body === null ? null : { status, headers, body, closed }
  }
  return closed || status === 204 || status === 304
    ? { status, headers, body: rest.toString('utf8'), closed }
    : null
}

function dechunk(bytes: Buffer): string | null {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at)
    if (lineEnd < 0) return null
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16)
    if (Number.isNaN(size)) return null
    if (size === 0) return Buffer.concat(parts).toString('utf8')
    if (bytes.length < lineEnd + 2 + size + 2) return null
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
}
