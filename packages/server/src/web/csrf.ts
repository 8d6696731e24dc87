import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'

/**
 * The CSRF token of a session's forms: an HMAC of the session's hash, so it needs no column,
 * changes with every sign-in and cannot be computed without the service secret.
 */
export function sessionCsrfToken(key: Buffer, sessionHash: Buffer): string {
  return createHmac('sha256', key)
    .update(`session\n${sessionHash.toString('hex')}`)
    .digest('base64url')
}

/** The sign-in form's token, bound to the pre-session cookie's random value (double submit). */
export function signInCsrfToken(key: Buffer, cookieValue: string): string {
  return createHmac('sha256', key).update(`sign-in\n${cookieValue}`).digest('base64url')
}

/**
 * The token of a signed-out visitor's one-time form (the first-run page, a password link), bound
 * to the pre-session cookie as the sign-in form's is, and to the form's purpose.
 */
export function oneTimeFormCsrfToken(
  key: Buffer,
  purpose: 'setup' | 'set-password',
  cookieValue: string,
): string {
  return createHmac('sha256', key).update(`${purpose}\n${cookieValue}`).digest('base64url')
}

/**
 * The token of an OAuth sign-in or consent form, bound to its interaction. The interaction's own
 * cookie (oidc-provider's, SameSite=Lax) names it, so this is the sign-in form's double submit
 * with that cookie in place of the pre-session one.
 */
export function interactionCsrfToken(key: Buffer, uid: string): string {
  return createHmac('sha256', key).update(`interaction\n${uid}`).digest('base64url')
}

/** Constant-time comparison of a submitted token with the expected one. */
export function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Whether the browser says the request comes from our own pages. Headers are checked only when
 * present (older browsers omit them); the token is what always decides.
 */
export function fromOwnPages(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin
  if (origin !== undefined && origin !== new URL(publicUrl).origin) return false
  const site = request.headers['sec-fetch-site']
  return site === undefined || site === 'same-origin' || site === 'none'
}
