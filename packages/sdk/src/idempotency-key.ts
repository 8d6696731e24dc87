import { bytesToHex, randomBytes } from '@noble/hashes/utils'

/**
 * A fresh Idempotency-Key for a write that was given none; it is reused across its retries. The
 * random bytes come from @noble/hashes, which finds the platform's CSPRNG on Node 18 too.
 */
export function newIdempotencyKey(): string {
  return `sdk_${bytesToHex(randomBytes(16))}`
}
