import { randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { WebCookies } from './web-cookies.ts'

// 32 random bytes in base64url: what the pre-session cookie carries, and all it may carry.
const PRE_SESSION_VALUE = /^[A-Za-z0-9_-]{43}$/

/**
 * The pre-session cookie's value, or null: the random value that the forms of a signed-out visitor
 * (sign-in, the first-run page, a password link) bind their CSRF token to (double submit).
 */
export function preSessionOf(request: FastifyRequest, cookies: WebCookies): string | null {
  const value = request.cookies[cookies.signIn]
  return value && PRE_SESSION_VALUE.test(value) ? value : null
}

/** The pre-session cookie's value, set on the reply first when the browser has none. */
export function ensurePreSession(
  request: FastifyRequest,
  reply: FastifyReply,
  cookies: WebCookies,
): string {
  const existing = preSessionOf(request, cookies)
  if (existing) return existing
  const value = randomBytes(32).toString('base64url')
  reply.setCookie(cookies.signIn, value, cookies.options)
  return value
}
