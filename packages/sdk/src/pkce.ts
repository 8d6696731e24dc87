import { sha256 } from '@noble/hashes/sha2'
import { randomBytes, utf8ToBytes } from '@noble/hashes/utils'

/** A PKCE pair (RFC 7636): keep `code_verifier` secret until the code exchange. */
export interface PkcePair {
  /** Sent with the code exchange only. */
  code_verifier: string
  /** BASE64URL(SHA-256(code_verifier)), sent with the authorization request. */
  code_challenge: string
  /** Always `S256`: the only method the server accepts. */
  code_challenge_method: 'S256'
}

// Base64url without padding (RFC 4648 section 5), as PKCE and OAuth state use it.
function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '')
}

/** The S256 challenge of a code verifier. */
export function pkceChallenge(codeVerifier: string): string {
  return base64url(sha256(utf8ToBytes(codeVerifier)))
}

/** A fresh PKCE pair: 32 random bytes as the verifier (43 characters), and its S256 challenge. */
export function createPkcePair(): PkcePair {
  const codeVerifier = base64url(randomBytes(32))
  return {
    code_verifier: codeVerifier,
    code_challenge: pkceChallenge(codeVerifier),
    code_challenge_method: 'S256',
  }
}

/** A random `state` for an authorization request, to check on the redirect back. */
export function randomState(): string {
  return base64url(randomBytes(16))
}
