import type { FastifyReply, FastifyRequest } from 'fastify'
import { type Caller, callerOf } from '../access/caller.ts'
import { readScopes } from '../access/scopes.ts'
import type { AppDeps } from '../app-deps.ts'
import { sessionCsrfToken } from './csrf.ts'
import { signInPath } from './return-to.ts'
import { seeOther } from './see-other.ts'
import type { WebCookies } from './web-cookies.ts'
import { findSession, type WebSession } from './web-session.ts'

/** What every signed-in page has: the session, its caller for reads, and its forms' CSRF token. */
export interface WebContext {
  readonly session: WebSession
  /** Reads as the person with every read scope, through the same visibility as the API. */
  readonly caller: Caller
  /** The hidden `csrf` field of every form on the page (csrf.ts). */
  readonly csrf: string
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in session of a web page; null when signed out (set by the web plugin). */
    web: WebContext | null
  }
}

// The session reads everything the person may open; writes on pages will check their own scopes.
const READ_SCOPES = new Set(readScopes())

/**
 * The session the request's cookie names and the caller it reads as, or null. The principal comes
 * from the same cache as a token's, keyed by the workspace's ACL epoch read in this request.
 */
export async function loadWebContext(
  deps: AppDeps,
  cookies: WebCookies,
  request: FastifyRequest,
): Promise<WebContext | null> {
  const value = request.cookies[cookies.session]
  return value ? webContextOf(deps, value) : null
}

/** The session a cookie's value names, as `loadWebContext` reads it (a session just started). */
export async function webContextOf(deps: AppDeps, value: string): Promise<WebContext | null> {
  const now = deps.clock.now()
  const session = await findSession(deps.db, value, now)
  if (!session) return null
  const actor = {
    workspaceId: session.workspaceId,
    actorId: session.personId,
    actorKind: 'person' as const,
    role: session.role,
  }
  const principal = await deps.principals.get(deps.db, actor, session.aclEpoch)
  const caller = callerOf(principal, {
    id: sessionCredentialId(session.idHash),
    kind: 'web_session',
    clientId: null,
    scopes: READ_SCOPES,
    madeWith: [],
    // The dashboard reads as its person: no fence, and no end beyond the session's own.
    fence: null,
    validUntil: null,
  })
  return { session, caller, csrf: sessionCsrfToken(deps.webKeys.csrfKey, session.idHash) }
}

/**
 * How audit entries name a session: not the hash itself, since entries may show this id and it
 * must not name the row.
 */
export function sessionCredentialId(idHash: Buffer): string {
  return `web_session:${idHash.subarray(0, 8).toString('hex')}`
}

/**
 * preHandler of every signed-in page: a signed-out visitor (or an ended or expired session) is
 * sent to sign in, and comes back to this page afterwards.
 */
export async function requireSignIn(request: FastifyRequest, reply: FastifyReply) {
  if (request.web) return
  return seeOther(reply, signInPath(request.url))
}

/**
 * The route options of every signed-in page: outside the API's authentication and the OpenAPI
 * document, behind `requireSignIn`.
 */
export const SIGNED_IN_PAGE = {
  config: { public: true },
  schema: { hide: true },
  preHandler: requireSignIn,
} as const
