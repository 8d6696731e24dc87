import { hmac } from '@noble/hashes/hmac'
import { sha256 } from '@noble/hashes/sha2'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils'
import type { WorkgraphEvent } from './api-types.ts'

/** Why a delivery was refused. */
export type WebhookRefusal = 'missing_signature' | 'bad_signature' | 'stale' | 'malformed_body'

/** A delivery that must not be trusted; `reason` says why. */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookRefusal

  constructor(reason: WebhookRefusal, message: string) {
    super(message)
    this.name = 'WebhookVerificationError'
    this.reason = reason
  }
}

/** Request headers as any server framework gives them. */
export type IncomingHeaders =
  | {
      /** The value of a header, or null when absent (as the Fetch API's `Headers` has it). */
      get(name: string): string | null
    }
  | Record<string, string | string[] | undefined>

/** Options of verifyWebhook. */
export interface VerifyOptions {
  /** How far `delivery.sent_at` may be from now, in seconds (default 300). */
  toleranceSeconds?: number
  /** Now, in unix seconds (for tests). */
  now?: number
}

function headerOf(headers: IncomingHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return headers.get(name) ?? undefined
  const value = (headers as Record<string, string | string[] | undefined>)[name]
  return Array.isArray(value) ? value[0] : value
}

// Compares in time that does not depend on where two strings differ.
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}

/**
 * Checks a delivery and returns its event (docs/webhooks.md, "The request"): the lowercase hex
 * HMAC-SHA256 of the raw body, keyed by the whole `whsec_…` secret, must match
 * `x-service-signature` (or `-previous`, during a rotation), for one of `secrets` (give the old and
 * the new one while you rotate); then `delivery.sent_at`, inside the signed body, must be within
 * five minutes. Pass the body exactly as received, before any JSON parsing. Throws a
 * WebhookVerificationError otherwise. Deduplicate on `event.id` yourself.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: IncomingHeaders,
  secrets: string | readonly string[],
  options: VerifyOptions = {},
): WorkgraphEvent {
  const given = ['x-service-signature', 'x-service-signature-previous']
    .map((name) => headerOf(headers, name))
    .filter((value): value is string => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value))
  if (given.length === 0)
    throw new WebhookVerificationError('missing_signature', 'No x-service-signature header')
  const body = typeof rawBody === 'string' ? utf8ToBytes(rawBody) : rawBody
  const matches = (typeof secrets === 'string' ? [secrets] : secrets).some((secret) => {
    const expected = bytesToHex(hmac(sha256, utf8ToBytes(secret), body))
    return given.some((signature) => sameText(signature, expected))
  })
  if (!matches)
    throw new WebhookVerificationError('bad_signature', 'The signature does not match the body')
  let event: WorkgraphEvent
  try {
    event = JSON.parse(new TextDecoder().decode(body)) as WorkgraphEvent
  } catch {
    throw new WebhookVerificationError('malformed_body', 'The body is not JSON')
  }
  const sentAt = event?.delivery?.sent_at
  if (typeof sentAt !== 'number')
    throw new WebhookVerificationError('malformed_body', 'The body has no delivery.sent_at')
  const now = options.now ?? Math.floor(Date.now() / 1000)
  if (Math.abs(now - sentAt) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('stale', 'delivery.sent_at is more than 5 minutes away')
  return event
}
