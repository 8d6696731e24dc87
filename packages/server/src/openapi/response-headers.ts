// A header as the document declares it.
const header = (description: string, schema: object) => ({ description, schema })
const seconds = { type: 'integer', minimum: 0 }

/** Headers of the API's answers, declared once in `components.headers` (docs/api.md). */
export const RESPONSE_HEADERS = {
  'X-Request-Id': header(
    "This request's id (a well-formed one you send is kept); problems repeat it as request_id.",
    { type: 'string' },
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

/** The headers on every answer to a token: its id and the rate-limit state. */
export const AUTHENTICATED_HEADERS: readonly HeaderName[] = [
  'X-Request-Id',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
]
