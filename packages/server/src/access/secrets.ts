import { createHash, randomBytes } from 'node:crypto'
import { crc32 } from 'node:zlib'
import { noteMinted } from '../lib/minted-values.ts'

/**
 * Prefixes of the secrets the service issues, recognisable by secret scanners (docs/api.md,
 * "Authentication").
 */
export const SECRET_PREFIX = {
  apiKey: 'wg_key_',
  workspaceToken: 'wg_wst_',
  oauthClient: 'wg_cs_',
  oauthAccessToken: 'wg_at_',
  oauthRefreshToken: 'wg_rt_',
  invitation: 'wg_inv_',
} as const

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const RANDOM_LENGTH = 32 // ~190 bits
const CHECKSUM_LENGTH = 6

function base62(bytes: Buffer, length: number): string {
  let value = BigInt(`0x${bytes.toString('hex')}`)
  let out = ''
  for (let i = 0; i < length; i++) {
    out = BASE62.charAt(Number(value % 62n)) + out
    value /= 62n
  }
  return out
}

function checksum(body: string): string {
  const sum = Buffer.alloc(4)
  sum.writeUInt32BE(crc32(body))
  return base62(sum, CHECKSUM_LENGTH)
}

/**
 * A new secret: prefix, random base62 and a CRC32 checksum (as GitHub's tokens have), so that a
 * scanner or our own authenticator can tell a real secret from a typo without a lookup.
 */
export function newSecret(prefix: string): string {
  return secretFrom(prefix, randomBytes(32))
}

/**
 * A secret in the same form as `newSecret`'s, made from 32 bytes the caller derived (the demo's
 * API key, from the service secret): the same bytes give the same secret.
 */
export function secretFrom(prefix: string, bytes: Buffer): string {
  const body = base62(bytes, RANDOM_LENGTH)
  const secret = `${prefix}${body}${checksum(prefix + body)}`
  noteMinted(secret)
  return secret
}

/** True when `secret` has the prefix, length, alphabet and checksum of one we issued. */
export function isWellFormedSecret(prefix: string, secret: string): boolean {
  if (
    !secret.startsWith(prefix) ||
    secret.length !== prefix.length + RANDOM_LENGTH + CHECKSUM_LENGTH
  )
    return false
  const body = secret.slice(prefix.length, prefix.length + RANDOM_LENGTH)
  if (!/^[0-9A-Za-z]+$/.test(body)) return false
  return checksum(prefix + body) === secret.slice(prefix.length + RANDOM_LENGTH)
}

/** What is stored instead of a secret: its SHA-256 (the secret is random, so no salt is needed). */
export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest()
}

/** The last four characters, shown so people can tell their keys apart. */
export function lastFour(secret: string): string {
  return secret.slice(-4)
}
