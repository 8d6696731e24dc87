import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppDeps } from '../app-deps.ts'
import type { WebCookies } from './web-cookies.ts'
import { endSession, startSession } from './web-session.ts'

/**
 * Signs the browser in as a person whose sign-in was just verified (a password, the identity
 * provider): a new session value at every sign-in, and the one the browser had (if any) ended, so
 * an id planted before sign-in is never the one that is signed in (no session fixation). The
 * pre-session cookie, whose forms led here, goes with it.
 */
export async function signInBrowser(
  deps: AppDeps,
  cookies: WebCookies,
  request: FastifyRequest,
  reply: FastifyReply,
  person: { readonly personId: string; readonly workspaceId: string },
): Promise<void> {
  const now = deps.clock.now()
  const previous = request.cookies[cookies.session]
  if (previous) await endSession(deps.db, previous, now)
  const value = await startSession(deps.db, { ...person, now })
  reply.setCookie(cookies.session, value, cookies.options)
  reply.clearCookie(cookies.signIn, cookies.options)
}
