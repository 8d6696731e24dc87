import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppDeps } from '../app-deps.ts'
import { type RelyingParty, SSO_CALLBACK_PATH } from '../sso/relying-party.ts'
import { SsoError } from '../sso/sso-error.ts'
import type { SsoIdentity } from '../sso/sso-identity.ts'
import { optionValue, type SsoOption, ssoOptions } from '../sso/sso-options.ts'
import { originOf, ssoSignIn } from '../sso/sso-sign-in.ts'
import { fromOwnPages, sameToken, signInCsrfToken } from './csrf.ts'
import { forbiddenFormPage } from './message.view.ts'
import { sendPage } from './page-headers.ts'
import { preSessionOf } from './pre-session.ts'
import { safeReturnTo } from './return-to.ts'
import { seeOther } from './see-other.ts'
import { signInBrowser } from './session-start.ts'
import { workspaceChoicePage } from './sign-in.view.ts'
import {
  noWorkspacePage,
  optionRole,
  type SsoStop,
  ssoStoppedPage,
  ssoStopStatus,
} from './sso.view.ts'
import { endFlow, flowOf, keepFlow, type SsoNext } from './sso-flow.ts'
import { startSsoFlow } from './sso-start.ts'
import type { WebCookies } from './web-cookies.ts'
import { formOf } from './web-write.ts'

const PAGE = { config: { public: true }, schema: { hide: true } } as const
// The provider's return carries its code in the address: request logs name the route instead.
const RETURN = { config: { public: true, urlHoldsSecret: true }, schema: { hide: true } } as const

/** The address of the OAuth interaction that a verified sign-in goes on with. */
export function interactionReturnPath(uid: string): string {
  return `/oauth/interaction/${encodeURIComponent(uid)}/sso/return`
}

/**
 * The dashboard's sign-in through the identity provider (docs/operations.md, "Single sign-on"):
 * GET /sign-in/sso sends the browser there; GET /sign-in/sso/callback is where every sign-in
 * returns, an OAuth interaction's too; POST /sign-in/sso/workspace is the choice when the
 * identity opens several workspaces. Registered only with SSO_ISSUER.
 */
export function ssoRoutes(deps: AppDeps, cookies: WebCookies, party: RelyingParty) {
  const key = deps.webKeys.csrfKey
  const flows = () => ({ cookies, secrets: deps.secrets, now: deps.clock.now() })
  return async (app: FastifyInstance) => {
    app.get('/sign-in/sso', PAGE, async (request, reply) => {
      const returnTo = safeReturnTo((request.query as Record<string, unknown>).return_to)
      if (request.web) return seeOther(reply, returnTo)
      const next = { kind: 'dashboard', returnTo } as const
      return startSsoFlow(deps, party, { request, reply, cookies, next })
    })

    app.get(SSO_CALLBACK_PATH, RETURN, async (request, reply) => {
      const flow = flowOf(request, flows(), 'pending')
      // Used once: whatever the provider answered, this flow cannot be returned to again.
      endFlow(reply, cookies)
      if (!flow) return stopped(reply, 'expired', 'dashboard')
      const at = request.url.indexOf('?')
      let identity: SsoIdentity
      try {
        identity = await party.identity(at < 0 ? '' : request.url.slice(at), flow.checks)
      } catch (error) {
        if (!(error instanceof SsoError)) throw error
        if (error.failure === 'unreachable' || error.failure === 'invalid')
          request.log.warn({ err: error.cause ?? error }, `identity provider: ${error.failure}`)
        return stopped(reply, error.failure, flow.next.kind)
      }
      const preSession = preSessionOf(request, cookies) as string
      if (flow.next.kind === 'interaction') {
        const context = { ...flows(), preSession }
        keepFlow(reply, context, { stage: 'verified', identity, next: flow.next })
        return seeOther(reply, interactionReturnPath(flow.next.uid))
      }
      const { returnTo } = flow.next
      const options = await ssoOptions(deps.db, identity, null, deps.clock.now())
      const [only] = options
      if (!only) return sendPage(reply, 403, noWorkspacePage(identity.email))
      if (options.length === 1) return finish(request, reply, identity, only, returnTo)
      keepFlow(reply, { ...flows(), preSession }, { stage: 'verified', identity, next: flow.next })
      return sendPage(
        reply,
        200,
        workspaceChoicePage({
          action: '/sign-in/sso/workspace',
          csrf: signInCsrfToken(key, preSession),
          lede: `You signed in as ${identity.email}, who may open several workspaces. Choose one.`,
          options: options.map((option) => ({
            value: optionValue(option),
            workspaceName: option.workspaceName,
            role: optionRole(option),
          })),
        }),
      )
    })

    app.post('/sign-in/sso/workspace', PAGE, async (request, reply) => {
      const form = formOf(request)
      const preSession = preSessionOf(request, cookies)
      if (
        !preSession ||
        !fromOwnPages(request, deps.config.publicUrl) ||
        !sameToken(form.csrf, signInCsrfToken(key, preSession))
      )
        return sendPage(reply, 403, forbiddenFormPage(null))
      const flow = flowOf(request, flows(), 'verified')
      if (flow?.next.kind !== 'dashboard') return stopped(reply, 'expired', 'dashboard')
      const { identity } = flow
      // The options are read again: a choice names one, it proves nothing by itself.
      const options = await ssoOptions(deps.db, identity, null, deps.clock.now())
      const chosen = options.find((option) => optionValue(option) === form.choice)
      if (!chosen) return sendPage(reply, 403, forbiddenFormPage(null))
      return finish(request, reply, identity, chosen, flow.next.returnTo)
    })

    async function finish(
      request: FastifyRequest,
      reply: FastifyReply,
      identity: SsoIdentity,
      option: SsoOption,
      returnTo: string,
    ) {
      const person = await ssoSignIn(deps, identity, option, originOf(request))
      endFlow(reply, cookies)
      if (!person) return stopped(reply, 'expired', 'dashboard')
      await signInBrowser(deps, cookies, request, reply, person)
      return seeOther(reply, returnTo)
    }

    function stopped(reply: FastifyReply, why: SsoStop, flow: SsoNext['kind']) {
      const again = flow === 'dashboard' ? { href: '/sign-in' } : 'app'
      return sendPage(reply, ssoStopStatus(why), ssoStoppedPage(why, again))
    }
  }
}
