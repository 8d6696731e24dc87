import { createHash, randomBytes } from 'node:crypto'

// 32 random bytes in base64url: what a one-time link carries, and all it may carry.
const LINK_VALUE = /^[A-Za-z0-9_-]{43}$/

/** A new one-time link value: 32 random bytes, in base64url so it fits a URL as it is. */
export function newLinkValue(): string {
  return randomBytes(32).toString('base64url')
}

/**
 * The SHA-256 of a link's value, the only form in which it is stored; null for a value that is
 * not one we make (then nothing is looked up).
 */
export function linkHash(value: unknown): Buffer | null {
  if (typeof value !== 'string' || !LINK_VALUE.test(value)) return null
  return createHash('sha256').update(value).digest()
}
