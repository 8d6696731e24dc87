import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppDeps } from '../app-deps.ts'
import type { RelyingParty } from '../sso/relying-party.ts'
import { SsoError } from '../sso/sso-error.ts'
import { sendPage } from './page-headers.ts'
import { ensurePreSession } from './pre-session.ts'
import { seeIdentityProvider } from './see-other.ts'
import { ssoStoppedPage, ssoStopStatus } from './sso.view.ts'
import { keepFlow, type SsoNext } from './sso-flow.ts'
import type { WebCookies } from './web-cookies.ts'

/** Where "Sign in with …" leads on the dashboard: the provider, then back to `returnTo`. */
export function ssoStartPath(returnTo: string): string {
  return returnTo === '/'
    ? '/sign-in/sso'
    : `/sign-in/sso?return_to=${encodeURIComponent(returnTo)}`
}

/**
 * Sends the browser to the provider with a new authorization request, keeping its checks and what
 * comes next in the browser's SSO cookie (sso-flow.ts), bound to its pre-session cookie.
 */
export async function startSsoFlow(
  deps: AppDeps,
  party: RelyingParty,
  input: { request: FastifyRequest; reply: FastifyReply; cookies: WebCookies; next: SsoNext },
): Promise<FastifyReply> {
  const { request, reply, cookies, next } = input
  const preSession = ensurePreSession(request, reply, cookies)
  let started: Awaited<ReturnType<RelyingParty['authorizationRequest']>>
  try {
    started = await party.authorizationRequest()
  } catch (error) {
    if (!(error instanceof SsoError)) throw error
    request.log.warn({ err: error.cause ?? error }, 'identity provider: no authorization request')
    const again = next.kind === 'dashboard' ? { href: '/sign-in' } : 'app'
    return sendPage(reply, ssoStopStatus(error.failure), ssoStoppedPage(error.failure, again))
  }
  const context = { cookies, secrets: deps.secrets, preSession, now: deps.clock.now() }
  keepFlow(reply, context, { stage: 'pending', checks: started.checks, next })
  return seeIdentityProvider(reply, started.url)
}
