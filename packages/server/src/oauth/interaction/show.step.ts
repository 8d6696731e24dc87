import type { FastifyInstance } from 'fastify'
import type { Interaction } from 'oidc-provider'
import { isKnownScope } from '../../access/scopes.ts'
import type { AppDeps } from '../../app-deps.ts'
import { OPENID_SCOPE } from '../oauth-metadata.ts'
import { showConsent } from './consent.step.ts'
import {
  INTERACTION_BASE,
  type InteractionContext,
  PAGE,
  requestedScopes,
} from './interaction-context.ts'
import { showSignIn } from './sign-in.step.ts'

/**
 * GET `/oauth/interaction/:uid`, where the provider sends the browser: the page of the step it
 * asks for. A browser signed in as someone the app may not serve signs in again. Unknown scopes
 * go back to the app as `invalid_scope` before anyone signs in.
 */
export function showStep(deps: AppDeps, ctx: InteractionContext) {
  return async (app: FastifyInstance) => {
    app.get(`${INTERACTION_BASE}/:uid`, PAGE, async (request, reply) => {
      const step = await ctx.open(request, reply)
      if (!step) return reply
      const refusal = scopeRefusal(step.interaction)
      if (refusal)
        return ctx.finish(request, reply, { error: 'invalid_scope', error_description: refusal })
      const person = await ctx.signedInPerson(step)
      if (step.interaction.prompt.name === 'login' || !person) return showSignIn(reply, step, 200)
      return showConsent(deps, reply, step, person, 200)
    })
  }
}

/** Why the requested scopes cannot be granted, or null when they can. */
function scopeRefusal(interaction: Interaction): string | null {
  const scopes = requestedScopes(interaction)
  if (scopes.length === 0) return 'Ask for at least one scope.'
  if (scopes.includes(OPENID_SCOPE))
    return 'This server grants OAuth 2.0 access to its API and issues no ID tokens: ask without openid.'
  const unknown = scopes.filter((scope) => !isKnownScope(scope))
  return unknown.length > 0 ? `Unknown scope: ${unknown.join(' ')}.` : null
}
