import type { FaultFamily } from './api-draft.ts'
import { bad } from './bad-values.ts'
import { int, pick } from './draws.ts'
import type { Gen } from './fuzz-request.ts'

// Headers a bad string may go in: ones the app reads and ones it should not care about.
const TEXT_HEADERS = [
  'x-fuzz',
  'idempotency-key',
  'x-request-id',
  'accept',
  'user-agent',
  'if-none-match',
  'accept-language',
  'cookie',
  'origin',
  'referer',
  'x-forwarded-for',
]

// Content types that are not JSON, or only look like it; the body stays JSON.
const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/jsonx',
  'json',
  'application/merge-patch+json',
  'application/vnd.api+json',
  '*/*',
  'text/json',
  ';;;',
  'application/',
]

// Keys that are not a valid Idempotency-Key: spaces, a tab, non-ASCII, too long, bad quoting.
const BAD_IDEMPOTENCY_KEYS = [
  'a b',
  ' ',
  'x'.repeat(256),
  '"unterminated',
  'é',
  'a\tb',
  '"a" "b"',
  '""',
  '"a b"',
]

// No Authorization (undefined), or one that is malformed or names no key: near misses of the real
// token among them. The long one is drawn even when not picked, as one draw.
const badAuthorizations = (g: Gen, token: string): (string | undefined)[] => [
  undefined,
  'Bearer',
  'Bearer x',
  'Basic abc',
  `Bearer ${token}x`,
  `Bearer ${token.slice(0, -1)}`,
  `Bearer wg_key_${'A'.repeat(40)}`,
  `Bearer ${'x'.repeat(int(g, 100, 8000))}`,
  `Bearer wg_at_${'a'.repeat(43)}`,
  `Bearer ${token} extra`,
  'Bearer \u0000',
  `Bearer ${token}\u0000`,
]

/** `text-header`, `token`, `content-type`, `idempotency-key`: one header bad, wrong or missing. */
export const headerFault: FaultFamily = (g, fault, { headers }, _shape, ctx) => {
  switch (fault) {
    case 'text-header': {
      const name = pick(g, TEXT_HEADERS)
      headers[name] = bad(g)
      break
    }
    case 'token': {
      const value = pick(g, badAuthorizations(g, ctx.token))
      if (value === undefined) delete headers.authorization
      else headers.authorization = value
      break
    }
    case 'content-type':
      headers['content-type'] = pick(g, WRONG_CONTENT_TYPES)
      break
    case 'idempotency-key':
      headers['idempotency-key'] = pick(g, BAD_IDEMPOTENCY_KEYS)
      break
  }
}
