// A header as the document declares it; `required` when every answer that declares it sends it.
const header = (description: string, schema: object, required = false) => ({
  description,
  ...(required ? { required } : {}),
  schema,
})
const seconds = { type: 'integer', minimum: 0 }

/** Headers of the API's answers, declared once in `components.headers` (docs/api.md). */
export const RESPONSE_HEADERS = {
  'X-Request-Id': header(
    "This request's id (a well-formed one you send is kept); problems repeat it as request_id.",
    { type: 'string' },
    true,
  ),
  'Cache-Control': header(
    'Always `no-store`: answers under /v1 are for the caller alone and change with every write.',
    { type: 'string', const: 'no-store' },
    true,
  ),
  'WWW-Authenticate': header(
    'The Bearer challenge (RFC 6750, RFC 9728): `realm`, `resource_metadata` (where a client finds the authorization server), and on 401 for a bad token `error="invalid_token"`, on 403 `error="insufficient_scope"` with the `scope` needed.',
    { type: 'string', pattern: '^Bearer ' },
  ),
  'RateLimit-Limit': header('Requests of this kind (reads or writes) a token may make a minute.', {
    type: 'integer',
  }),
  'RateLimit-Remaining': header('Requests of this kind left in the current window.', {
    type: 'integer',
  }),
  'RateLimit-Reset': header('Seconds until the window ends.', seconds),
  'RateLimit-Policy': header('The limit and its window, such as `600;w=60`.', { type: 'string' }),
  'Retry-After': header('Seconds to wait before trying again.', seconds),
  'Idempotent-Replayed': header(
    'Present, and `true`, when this is the stored answer of an earlier request with the same Idempotency-Key.',
    { type: 'string', enum: ['true'] },
  ),
} as const

type HeaderName = keyof typeof RESPONSE_HEADERS

/** `$ref`s to the named headers, for a response's `headers`. */
export function headerRefs(names: readonly HeaderName[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]))
}

/** The headers on every answer to a token: its id, caching, and the rate-limit state. */
export const AUTHENTICATED_HEADERS: readonly HeaderName[] = [
  'X-Request-Id',
  'Cache-Control',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
]

/**
 * The headers of a problem under /v1: its id and caching always; the rate-limit state once the
 * token is known (a 404, a 409, a 422); the challenge on a 401 or 403.
 */
export const API_PROBLEM_HEADERS: readonly HeaderName[] = [
  ...AUTHENTICATED_HEADERS,
  'WWW-Authenticate',
]
