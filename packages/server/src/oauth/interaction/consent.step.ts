import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Interaction } from 'oidc-provider'
import type { AppDeps } from '../../app-deps.ts'
import { formOf } from '../../web/web-write.ts'
import { approveConsent } from '../consent-grant.ts'
import { fenceOfGrant, pickedProjects, projectsToPick } from '../consent-projects.ts'
import { PROJECT_PICKER_ON } from '../oauth-provider.ts'
import { consentPage } from './consent.view.ts'
import {
  INTERACTION_BASE,
  type InteractionContext,
  type InteractionPerson,
  PAGE,
  requestedScopes,
  type Step,
} from './interaction-context.ts'
import { interactionErrorPage } from './interaction-error.view.ts'

const PICK_PROJECTS = 'Pick at least one of the projects listed (at most 100).'

/**
 * Whether the consent page offers the project choice: the app asked for it, or the grant it
 * would extend is fenced already (a new approval never silently lifts a fence).
 */
function offersProjects(interaction: Interaction, fence: string[] | null): boolean {
  return interaction.params.project_picker === PROJECT_PICKER_ON || fence !== null
}

/** Shows the consent page of an interaction to the person signed in. */
export async function showConsent(
  deps: AppDeps,
  reply: FastifyReply,
  step: Step,
  person: InteractionPerson,
  status: number,
  error?: string,
): Promise<FastifyReply> {
  const { interaction } = step
  const fence = await fenceOfGrant(deps.db, interaction.grantId)
  const projects = offersProjects(interaction, fence)
    ? (await projectsToPick(deps.db, person)).map((project) => ({
        ...project,
        checked: fence?.includes(project.id) ?? false,
      }))
    : undefined
  const page = consentPage({
    action: step.action('confirm'),
    switchAction: step.action('switch'),
    csrf: step.csrf,
    clientName: step.client.name,
    personName: person.name,
    email: person.email,
    workspaceName: person.workspace_name,
    scopes: requestedScopes(interaction),
    ...(projects && { projects }),
    ...(error !== undefined && { error }),
  })
  return step.send(reply, status, page)
}

/**
 * POST `…/:uid/confirm`, the consent form: Deny sends `access_denied` back to the app; Allow
 * records the grant (and the projects picked, when offered) and sends the code back.
 */
export function consentStep(deps: AppDeps, ctx: InteractionContext) {
  return async (app: FastifyInstance) => {
    app.post(`${INTERACTION_BASE}/:uid/confirm`, PAGE, async (request, reply) => {
      const step = await ctx.openForm(request, reply)
      if (!step) return reply
      const { interaction } = step
      const person = await ctx.signedInPerson(step)
      if (interaction.prompt.name !== 'consent' || !person)
        return step.send(reply, 400, interactionErrorPage('invalid_request', 'Sign in first.'))
      const form = formOf(request)
      if (form.decision !== 'approve') {
        return ctx.finish(request, reply, {
          error: 'access_denied',
          error_description: 'The user denied the request.',
        })
      }
      let projectIds: string[] | null = null
      if (offersProjects(interaction, await fenceOfGrant(deps.db, interaction.grantId))) {
        const picked = [form.project_ids ?? []].flat()
        projectIds = await pickedProjects(deps.db, person, picked)
        if (!projectIds) return showConsent(deps, reply, step, person, 400, PICK_PROJECTS)
      }
      const grantId = await approveConsent({
        db: deps.db,
        provider: ctx.provider,
        request,
        interaction,
        person,
        projectIds,
        now: deps.clock.now(),
      })
      return ctx.finish(request, reply, { consent: { grantId } }, true)
    })
  }
}
