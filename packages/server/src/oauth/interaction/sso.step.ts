import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppDeps } from '../../app-deps.ts'
import type { RelyingParty } from '../../sso/relying-party.ts'
import type { SsoIdentity } from '../../sso/sso-identity.ts'
import { optionValue, type SsoOption, ssoOptions } from '../../sso/sso-options.ts'
import { originOf, ssoSignIn } from '../../sso/sso-sign-in.ts'
import { forbiddenFormPage } from '../../web/message.view.ts'
import { workspaceChoicePage } from '../../web/sign-in.view.ts'
import { noWorkspacePage, optionRole, ssoStoppedPage, ssoStopStatus } from '../../web/sso.view.ts'
import { endFlow, flowOf, type VerifiedFlow } from '../../web/sso-flow.ts'
import { startSsoFlow } from '../../web/sso-start.ts'
import { webCookies } from '../../web/web-cookies.ts'
import { formOf } from '../../web/web-write.ts'
import {
  INTERACTION_BASE,
  type InteractionContext,
  PAGE,
  type Step,
} from './interaction-context.ts'
import { completeSignIn } from './sign-in.step.ts'

// The provider's return leads here: request logs name the route, as for the callback.
const RETURN = { config: { public: true, urlHoldsSecret: true }, schema: { hide: true } } as const

/**
 * Signing in for an app through the identity provider (docs/oauth.md, "Sign-in and consent
 * pages"): GET `…/:uid/sso` sends the browser to the provider, whose return comes to the
 * dashboard's callback (web/sso.routes.ts), which sends a verified identity back to
 * GET `…/:uid/sso/return`; POST `…/:uid/sso/workspace` is the choice when it opens several
 * workspaces the app may serve. The interaction resumes as after a password. Registered only
 * with SSO_ISSUER.
 */
export function ssoStep(deps: AppDeps, ctx: InteractionContext, party: RelyingParty) {
  const cookies = webCookies(deps.config.publicUrl)
  const flows = () => ({ cookies, secrets: deps.secrets, now: deps.clock.now() })
  return async (app: FastifyInstance) => {
    app.get(`${INTERACTION_BASE}/:uid/sso`, PAGE, async (request, reply) => {
      const step = await ctx.open(request, reply)
      if (!step) return reply
      const next = { kind: 'interaction', uid: step.interaction.uid } as const
      return startSsoFlow(deps, party, { request, reply, cookies, next })
    })

    app.get(`${INTERACTION_BASE}/:uid/sso/return`, RETURN, async (request, reply) => {
      const step = await ctx.open(request, reply)
      if (!step) return reply
      const flow = verifiedFlow(request, step)
      if (!flow) return expired(reply, step)
      const options = await optionsFor(flow.identity, step)
      const [only] = options
      if (!only) {
        endFlow(reply, cookies)
        return step.send(reply, 403, noWorkspacePage(flow.identity.email))
      }
      if (options.length === 1) return complete(request, reply, step, flow.identity, only)
      const page = workspaceChoicePage({
        action: step.action('sso/workspace'),
        csrf: step.csrf,
        lede: `You signed in as ${flow.identity.email}, who may open several workspaces. The app will act in the one you choose.`,
        options: options.map((option) => ({
          value: optionValue(option),
          workspaceName: option.workspaceName,
          role: optionRole(option),
        })),
      })
      return step.send(reply, 200, page)
    })

    app.post(`${INTERACTION_BASE}/:uid/sso/workspace`, PAGE, async (request, reply) => {
      const step = await ctx.openForm(request, reply)
      if (!step) return reply
      const flow = verifiedFlow(request, step)
      if (!flow) return expired(reply, step)
      // The options are read again: a choice names one, it proves nothing by itself.
      const choice = formOf(request).choice
      const chosen = (await optionsFor(flow.identity, step)).find(
        (option) => optionValue(option) === choice,
      )
      if (!chosen) return step.send(reply, 403, forbiddenFormPage(null))
      return complete(request, reply, step, flow.identity, chosen)
    })

    // This browser's verified sign-in, made for this interaction.
    function verifiedFlow(request: FastifyRequest, step: Step): VerifiedFlow | undefined {
      const flow = flowOf(request, flows(), 'verified')
      return flow?.next.kind === 'interaction' && flow.next.uid === step.interaction.uid
        ? flow
        : undefined
    }

    function optionsFor(identity: SsoIdentity, step: Step): Promise<SsoOption[]> {
      return ssoOptions(deps.db, identity, step.client.workspaceId, deps.clock.now())
    }

    async function complete(
      request: FastifyRequest,
      reply: FastifyReply,
      step: Step,
      identity: SsoIdentity,
      option: SsoOption,
    ) {
      const person = await ssoSignIn(deps, identity, option, originOf(request))
      endFlow(reply, cookies)
      if (!person) return expired(reply, step)
      return completeSignIn(ctx, request, reply, step, person.personId)
    }

    function expired(reply: FastifyReply, step: Step) {
      return step.send(reply, ssoStopStatus('expired'), ssoStoppedPage('expired', 'app'))
    }
  }
}
