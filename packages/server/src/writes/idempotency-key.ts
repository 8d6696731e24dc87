import { createHash } from 'node:crypto'
import { ProblemError } from '../api/problem-catalogue.ts'
import { canonicalJson } from '../lib/canonical-json.ts'

const KEY = /^[A-Za-z0-9_.:-]{1,255}$/

/** The header's value as idempotencyKeyOf accepts it, bare or quoted, for the OpenAPI document. */
export const IDEMPOTENCY_KEY_HEADER = {
  pattern: `^(?:${KEY.source.slice(1, -1)}|"${KEY.source.slice(1, -1)}")$`,
  maxLength: 257,
}

/**
 * The `Idempotency-Key` a request sent, or null when it has none. A quoted structured-field string
 * (the IETF draft's form, `"abc"`) is accepted as well as a bare token (Stripe's); anything else,
 * a key sent twice included, is a 400 before the request does anything.
 */
export function idempotencyKeyOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null
  const raw = Array.isArray(header) ? null : header
  const key = raw?.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1) : raw
  if (key === null || key === undefined || !KEY.test(key)) {
    throw new ProblemError(
      'invalid_request',
      'Idempotency-Key must be 1 to 255 characters of A-Z, a-z, 0-9, "_", ".", ":" and "-" (a UUID is a good choice), sent once.',
      { errors: [{ path: '/headers/idempotency-key', message: 'is malformed' }] },
    )
  }
  return key
}

/**
 * What makes two requests "the same" for a key: the operation (method and route, or a tool's
 * name), its parameters and its input in canonical JSON, so a retry that re-serialized its body
 * with other key order still matches.
 */
export function requestFingerprint(operation: string, params: unknown, input: unknown): string {
  return createHash('sha256')
    .update(operation)
    .update('\n')
    .update(canonicalJson(params ?? {}))
    .update('\n')
    .update(canonicalJson(input ?? null))
    .digest('hex')
}
