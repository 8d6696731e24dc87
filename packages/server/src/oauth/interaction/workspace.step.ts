import type { FastifyInstance } from 'fastify'
import type { AppDeps } from '../../app-deps.ts'
import { forbiddenFormPage } from '../../web/message.view.ts'
import { formOf } from '../../web/web-write.ts'
import { chosenPerson } from '../../web/workspace-choice.ts'
import { INTERACTION_BASE, type InteractionContext, PAGE } from './interaction-context.ts'
import { completeSignIn, PASSWORDS_OFF, showSignIn } from './sign-in.step.ts'

/**
 * POST `…/:uid/workspace`: the workspace chosen after a password opened several. The choice
 * names a person and proves, for this interaction and for 10 minutes, that their password was
 * just verified (web/workspace-choice.ts, as on the dashboard); anything else is the 403 page.
 */
export function workspaceStep(deps: AppDeps, ctx: InteractionContext) {
  return async (app: FastifyInstance) => {
    app.post(`${INTERACTION_BASE}/:uid/workspace`, PAGE, async (request, reply) => {
      const step = await ctx.openForm(request, reply)
      if (!step) return reply
      // A choice proves a password: none counts while passwords are off.
      if (!deps.config.passwordSignIn) return showSignIn(reply, step, 403, { error: PASSWORDS_OFF })
      const key = deps.webKeys.csrfKey
      const choice = formOf(request).choice
      const person = chosenPerson(key, step.interaction.uid, choice, deps.clock.now())
      if (!person) return step.send(reply, 403, forbiddenFormPage(null))
      return completeSignIn(ctx, request, reply, step, person.personId)
    })
  }
}
