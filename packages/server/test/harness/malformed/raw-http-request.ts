import { chance, int, pick } from './draws.ts'
import type { Gen } from './fuzz-request.ts'

// The parts of a raw request that may carry a fault; one of them always does, others now and then.
const DIMENSIONS = [
  'method',
  'target',
  'version',
  'eol',
  'host',
  'auth',
  'header',
  'framing',
] as const
type Dimension = (typeof DIMENSIONS)[number]

// Whether a dimension gets a fault this time (drawn, except for the one that always does); a fault
// is recorded for the report.
type Faulty = (dimension: Dimension, what?: string) => boolean

// The request line: the method is returned too, since it decides whether a body follows.
function requestLine(g: Gen, faulty: Faulty): { method: string; line: string } {
  let method = pick(g, ['GET', 'GET', 'POST', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'])
  if (faulty('method')) {
    method = pick(g, [
      'BREW',
      'G ET',
      'get',
      'PRI',
      'TRACE',
      'PROPFIND',
      'M-SEARCH',
      '\u0000',
      'CONNECT',
    ])
  }
  let target = pick(g, [
    '/v1/projects',
    '/v1/tasks',
    '/v1/search',
    '/healthz',
    '/v1/nope',
    '/v1/workspace',
  ])
  if (faulty('target')) {
    target = pick(g, [
      '*',
      'http://127.0.0.1/v1/projects',
      '/v1/\u0000',
      '/v1/ projects',
      '/v1/%ZZ',
      `/${'a'.repeat(int(g, 100, 20_000))}`,
      '/v1/projects\u007f',
      '/v1/\u00e9',
      '',
      'v1/projects',
      '/v1/projects?limit=%00',
      '/v1/projects#frag',
      '//v1//projects',
      '/v1/projects?%ED%A0%80',
    ])
  }
  let version = 'HTTP/1.1'
  if (faulty('version')) {
    version = pick(g, [
      'HTTP/2.0',
      'HTTP/1.2',
      'HTTP/9',
      'HTTP/1.1 extra',
      '',
      'http/1.1',
      'HTTP/1.0',
    ])
  }
  // `PRI /path` without a version reads as HTTP/0.9 and as the start of an HTTP/2 preface: Node
  // hands the request on, then closes the connection itself, so no answer can reach the client.
  // Nothing in this app can change that; the shape is left out rather than counted as a failure.
  if (method === 'PRI' && version === '') version = 'HTTP/1.1'
  return { method, line: [method, target, version].filter((part) => part !== '').join(' ') }
}

// Host: one, none, two, empty or with a space.
function hostLines(g: Gen, faulty: Faulty): string[] {
  const lines: string[] = []
  const host = faulty('host') ? pick(g, ['missing', 'twice', 'empty', 'spaced']) : 'ok'
  if (host === 'ok' || host === 'twice') lines.push('Host: 127.0.0.1')
  if (host === 'twice') lines.push('Host: example.test')
  if (host === 'empty') lines.push('Host:')
  if (host === 'spaced') lines.push('Host: a b')
  return lines
}

// Authorization: the real token, none, two, or one that does not parse.
function authLines(g: Gen, faulty: Faulty, token: string): string[] {
  const lines: string[] = []
  const auth = faulty('auth') ? pick(g, ['none', 'twice', 'garbage', 'latin1']) : 'valid'
  if (auth === 'valid' || auth === 'twice') lines.push(`Authorization: Bearer ${token}`)
  if (auth === 'twice') lines.push('authorization: Bearer wg_key_other')
  if (auth === 'garbage') lines.push(`Authorization: ${pick(g, ['Bearer', 'x', 'Bearer a b c'])}`)
  if (auth === 'latin1') lines.push('Authorization: Bearer \u00ff\u00e9')
  return lines
}

// Now and then a header that breaks the syntax or the limits: a NUL, no colon, folding, too big.
function oddHeaderLines(g: Gen, faulty: Faulty): string[] {
  const lines: string[] = []
  const header = faulty('header')
    ? pick(g, ['nul', 'no-colon', 'space-name', 'fold', 'big', 'expect', 'ctl', 'many'])
    : 'none'
  if (header === 'nul') lines.push('X-Note: a\u0000b')
  if (header === 'no-colon') lines.push('X-Note')
  if (header === 'space-name') lines.push(pick(g, ['X Note: a', 'X-Note : a', '(x): a', ': a']))
  if (header === 'fold') lines.push('X-Note: a', ' continued')
  if (header === 'big') lines.push(`X-Big: ${'x'.repeat(int(g, 17_000, 40_000))}`)
  if (header === 'expect')
    lines.push(`Expect: ${pick(g, ['tea', '100-continue, tea', '200-ok', ''])}`)
  if (header === 'ctl') lines.push(`X-Note: a${pick(g, ['\u0001', '\u007f', '\u001b[31m'])}b`)
  if (header === 'many') {
    // Drawn once: up to 2,500 headers, past Node's limit of 2,000 and its 16 KiB.
    const count = int(g, 100, 2500)
    for (let i = 0; i < count; i++) lines.push(`X-H${i}: ${i}`)
  }
  return lines
}

// The framing headers of the body, and the body as it goes on the wire (chunked or not).
function framed(g: Gen, faulty: Faulty, body: string): { lines: string[]; wire: string } {
  const lines: string[] = []
  const framing = faulty('framing')
    ? pick(g, ['te', 'both', 'bad-cl', 'two-cl', 'bad-chunks', 'short-cl', 'none'])
    : 'cl'
  if (framing === 'cl') lines.push(`Content-Length: ${Buffer.byteLength(body)}`)
  if (framing === 'short-cl')
    lines.push(`Content-Length: ${Math.max(0, Buffer.byteLength(body) - 1)}`)
  if (framing === 'te' || framing === 'bad-chunks')
    lines.push(
      `Transfer-Encoding: ${pick(g, ['chunked', 'chunked', 'gzip, chunked', 'chunked, gzip', 'identity'])}`,
    )
  if (framing === 'both')
    lines.push(`Content-Length: ${Buffer.byteLength(body)}`, 'Transfer-Encoding: chunked')
  if (framing === 'bad-cl')
    lines.push(
      `Content-Length: ${pick(g, ['five', '-1', '1.5', '0x10', ' 1 2', '99999999999999999999'])}`,
    )
  if (framing === 'two-cl') lines.push('Content-Length: 1', 'Content-Length: 2')
  let wire = body
  if (framing === 'te') wire = `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`
  // Each malformed from its first bytes, so that no request leaves the server waiting for more.
  if (framing === 'bad-chunks')
    wire = pick(g, [
      'zz\r\n',
      `${(Buffer.byteLength(body) + 3).toString(16)}\r\n${body}\r\n0\r\n\r\n`,
      '1;x=\u0000\r\na\r\n0\r\n\r\n',
      '-1\r\n',
    ])
  return { lines, wire }
}

/**
 * Raw bytes of a request that may not be HTTP at all: bad request lines and versions, bad or
 * conflicting framing headers, control characters, oversized or duplicated headers, bare LFs.
 * One of these faults for sure, others now and then. Only for routes whose errors are
 * problem+json, never a well-formed write, and always complete or broken from its first bytes, so
 * that the server is never left rightly waiting for more.
 */
export function rawHttpRequest(g: Gen, token: string): { bytes: Buffer; fault: string } {
  const primary = pick(g, DIMENSIONS)
  const faults: string[] = []
  const faulty: Faulty = (dimension, what = '') => {
    if (dimension !== primary && !chance(g, 8)) return false
    faults.push(`${dimension} ${what}`)
    return true
  }
  const eol = faulty('eol', 'bare') ? pick(g, ['\n', '\r']) : '\r\n'
  const { method, line } = requestLine(g, faulty)
  const lines = hostLines(g, faulty)
  lines.push(...authLines(g, faulty, token))
  lines.push(...oddHeaderLines(g, faulty))
  // A write's body is always refused: bad JSON, a wrong type, a NUL, an unpaired surrogate.
  const body =
    method === 'GET' || method === 'HEAD'
      ? ''
      : pick(g, ['{', '{"title":1}', '{"title":"\\u0000"}', '[]', 'garbage', '{"query":"\\ud800"}'])
  if (body) lines.push('Content-Type: application/json')
  const { lines: framing, wire } = framed(g, faulty, body)
  lines.push(...framing)
  const text = `${line}${eol}${lines.join(eol)}${eol}${eol}${wire}`
  return { bytes: Buffer.from(text, 'latin1'), fault: faults.join('; ') }
}
