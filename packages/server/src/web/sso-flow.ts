import type { FastifyReply, FastifyRequest } from 'fastify'
import type { SecretBox } from '../lib/secret-box.ts'
import type { AuthorizationChecks } from '../sso/relying-party.ts'
import type { SsoIdentity } from '../sso/sso-identity.ts'
import { preSessionOf } from './pre-session.ts'
import type { WebCookies } from './web-cookies.ts'

/** Where a sign-in through the provider goes on: a dashboard page, or an app's OAuth interaction. */
export type SsoNext =
  | { readonly kind: 'dashboard'; readonly returnTo: string }
  | { readonly kind: 'interaction'; readonly uid: string }

/** A sign-in sent to the provider, waiting for its return. */
export interface PendingFlow {
  readonly stage: 'pending'
  readonly checks: AuthorizationChecks
  readonly next: SsoNext
}

/** A sign-in the provider vouched for, waiting for the choice of a workspace. */
export interface VerifiedFlow {
  readonly stage: 'verified'
  readonly identity: SsoIdentity
  readonly next: SsoNext
}

// Time at the provider (a password, a second factor), or on the choice of a workspace.
const FLOW_LIFETIME_MS = 10 * 60 * 1000

/**
 * Keeps a flow in the browser that runs it, in the SSO cookie: sealed (AES-GCM under the service
 * secret) for this browser's pre-session cookie, which the request must carry. So `state`, `nonce`
 * and the PKCE verifier, and then the identity, belong to the pre-session: a return to the
 * callback in any other browser (the login CSRF of a link to someone else's return) finds no flow
 * of its state, and a cookie copied elsewhere opens nothing without its pre-session cookie.
 */
export function keepFlow(
  reply: FastifyReply,
  input: { cookies: WebCookies; secrets: SecretBox; preSession: string; now: Date },
  flow: PendingFlow | VerifiedFlow,
): void {
  const sealed = input.secrets.seal(
    JSON.stringify({ ...flow, issued: input.now.getTime() }),
    context(input.preSession),
  )
  reply.setCookie(input.cookies.sso, sealed, {
    ...input.cookies.options,
    maxAge: FLOW_LIFETIME_MS / 1000,
  })
}

/**
 * The flow of this browser at this stage, if its SSO cookie opens with its pre-session cookie and
 * is younger than 10 minutes; else undefined.
 */
export function flowOf<Stage extends 'pending' | 'verified'>(
  request: FastifyRequest,
  input: { cookies: WebCookies; secrets: SecretBox; now: Date },
  stage: Stage,
): (Stage extends 'pending' ? PendingFlow : VerifiedFlow) | undefined {
  const preSession = preSessionOf(request, input.cookies)
  const sealed = request.cookies[input.cookies.sso]
  if (!preSession || !sealed) return undefined
  let flow: (PendingFlow | VerifiedFlow) & { issued: number }
  try {
    flow = JSON.parse(input.secrets.open(sealed, context(preSession)))
  } catch {
    return undefined
  }
  const age = input.now.getTime() - flow.issued
  if (flow.stage !== stage || !(age >= 0 && age < FLOW_LIFETIME_MS)) return undefined
  return flow as unknown as Stage extends 'pending' ? PendingFlow : VerifiedFlow
}

/** Ends the browser's flow: a return is used once, and a sign-in leaves nothing behind. */
export function endFlow(reply: FastifyReply, cookies: WebCookies): void {
  reply.clearCookie(cookies.sso, cookies.options)
}

function context(preSession: string): string {
  return `sso-flow\n${preSession}`
}
