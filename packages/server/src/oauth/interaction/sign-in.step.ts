import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { html } from 'ghtml'
import type { AppDeps } from '../../app-deps.ts'
import { allowSignInAttempt, matchSignIn } from '../../web/sign-in.ts'
import { signInPage, workspaceChoicePage } from '../../web/sign-in.view.ts'
import { formOf } from '../../web/web-write.ts'
import { choiceValue } from '../../web/workspace-choice.ts'
import {
  INTERACTION_BASE,
  type InteractionContext,
  PAGE,
  type Step,
} from './interaction-context.ts'

const WRONG = 'That email and password do not match an account that can use this app.'
const TOO_MANY = 'Too many sign-in attempts. Wait a minute and try again.'
/** The answer to a password posted while PASSWORD_SIGN_IN is off. */
export const PASSWORDS_OFF = 'Signing in with a password is turned off on this server.'

/** Shows the interaction's sign-in form, with the last attempt's email and error. */
export function showSignIn(
  reply: FastifyReply,
  step: Step,
  status: number,
  extra: { email?: string; error?: string } = {},
): FastifyReply {
  const lede = html`<strong>${step.client.name}</strong> wants to use Workgraph on your behalf.
Sign in to continue.`
  return step.send(
    reply,
    status,
    signInPage({ action: step.action('login'), csrf: step.csrf, lede, ...step.offer, ...extra }),
  )
}

/**
 * Ends the sign-in step as a person whose password was just verified, if the app may act for
 * them; else the sign-in form again, as for a wrong password.
 */
export async function completeSignIn(
  ctx: InteractionContext,
  request: FastifyRequest,
  reply: FastifyReply,
  step: Step,
  personId: string,
): Promise<FastifyReply> {
  if (!(await ctx.allowedPerson(step, personId)))
    return showSignIn(reply, step, 401, { error: WRONG })
  return ctx.finish(request, reply, { login: { accountId: personId } })
}

/**
 * POST `…/:uid/login`, the sign-in form: the dashboard's people, passwords and attempt budgets
 * (web/sign-in.ts). An email and password that open several workspaces the app may serve get
 * the choice of one (workspace.step.ts). POST `…/:uid/switch` ("Sign in as someone else" on the
 * consent page) shows the form again.
 */
export function signInStep(deps: AppDeps, ctx: InteractionContext) {
  return async (app: FastifyInstance) => {
    app.post(`${INTERACTION_BASE}/:uid/login`, PAGE, async (request, reply) => {
      const step = await ctx.openForm(request, reply)
      if (!step) return reply
      // Refused before anything is counted or hashed: there is no password to guess.
      if (!deps.config.passwordSignIn) return showSignIn(reply, step, 403, { error: PASSWORDS_OFF })
      const form = formOf(request)
      const email = typeof form.email === 'string' ? form.email : ''
      const password = typeof form.password === 'string' ? form.password : ''
      const now = deps.clock.now()
      const perMinute = deps.config.oauthSignInsPerMinute
      if (!(await allowSignInAttempt(deps.rateLimits, { email, ip: request.ip, perMinute, now }))) {
        reply.header('retry-after', '60')
        return showSignIn(reply, step, 429, { email, error: TOO_MANY })
      }
      const matches = await matchSignIn(deps.db, email, password, step.client.workspaceId)
      const [only] = matches
      if (!only) return showSignIn(reply, step, 401, { email, error: WRONG })
      if (matches.length === 1) return completeSignIn(ctx, request, reply, step, only.personId)
      const key = deps.webKeys.csrfKey
      const page = workspaceChoicePage({
        action: step.action('workspace'),
        csrf: step.csrf,
        lede: 'You belong to several workspaces. The app will act in the one you choose.',
        options: matches.map((match) => ({
          value: choiceValue(key, step.interaction.uid, match, now),
          workspaceName: match.workspaceName,
          role: match.role,
        })),
      })
      return step.send(reply, 200, page)
    })

    app.post(`${INTERACTION_BASE}/:uid/switch`, PAGE, async (request, reply) => {
      const step = await ctx.openForm(request, reply)
      return step ? showSignIn(reply, step, 200) : reply
    })
  }
}
