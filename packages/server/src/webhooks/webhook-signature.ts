import { createHmac, randomBytes } from 'node:crypto'
import { noteMinted } from '../lib/minted-values.ts'

const SECRET_PREFIX = 'whsec_'

/**
 * A new signing secret: `whsec_` and 32 random bytes in standard base64. The service's own
 * signature keys HMAC with the UTF-8 bytes of the whole string (docs/webhooks.md); the Standard
 * Webhooks signature keys it with the decoded bytes, as that specification's verifiers expect.
 */
export function newWebhookSecret(): string {
  const secret = `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`
  noteMinted(secret)
  return secret
}

/** `x-service-signature`: lowercase hex HMAC-SHA256 of the raw body, keyed by the whole secret. */
export function serviceSignature(secret: string, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest('hex')
}

/** One `v1,<base64>` entry of the Standard Webhooks `webhook-signature` header. */
export function standardSignature(
  secret: string,
  messageId: string,
  timestamp: number,
  body: string,
): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
  const mac = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`, 'utf8')
  return `v1,${mac.digest('base64')}`
}
