import { createPrivateKey, hkdfSync, type JsonWebKey } from 'node:crypto'

/** The authorization server's keys, all derived from the service secret. */
export interface OAuthKeys {
  /** Ed25519 private key (JWK) that signs what the server signs (ID tokens, if ever asked for). */
  readonly signingKey: JsonWebKey
  /** Keys that sign the authorization server's cookies. */
  readonly cookieKeys: string[]
}

// PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows it.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')

function derive(secret: Buffer, purpose: string, length = 32): Buffer {
  return Buffer.from(
    hkdfSync('sha256', secret, Buffer.alloc(0), `workgraph oauth ${purpose}`, length),
  )
}

/**
 * Derives the keys from the service secret, so every instance that shares WORKGRAPH_SECRET signs
 * and verifies alike without another secret to distribute.
 */
export function deriveOAuthKeys(secret: Buffer): OAuthKeys {
  const seed = derive(secret, 'signing key')
  const signingKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  }).export({ format: 'jwk' })
  return {
    signingKey: { ...signingKey, alg: 'EdDSA', use: 'sig', kid: 'wg-ed25519-1' },
    cookieKeys: [derive(secret, 'cookie key').toString('base64url')],
  }
}

/** The dashboard's keys, derived from the service secret like the OAuth ones. */
export interface WebKeys {
  /** Key of the HMACs that bind form tokens to a session, the pre-session cookie or an OAuth interaction. */
  readonly csrfKey: Buffer
}

/** Derives the dashboard's keys, so every instance sharing WORKGRAPH_SECRET agrees on them. */
export function deriveWebKeys(secret: Buffer): WebKeys {
  return {
    csrfKey: Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'workgraph web csrf key', 32)),
  }
}

/**
 * The key that encrypts paging and feed cursors, derived from the service secret like the others,
 * so a cursor made by one instance opens on every instance sharing WORKGRAPH_SECRET.
 */
export function deriveCursorKey(secret: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'workgraph cursor key', 32))
}
