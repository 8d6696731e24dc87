import { createHmac, timingSafeEqual } from 'node:crypto'
import formBody from '@fastify/formbody'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type Provider from 'oidc-provider'
import type { Interaction } from 'oidc-provider'
import type { Role } from '../access/principal.ts'
import { isKnownScope } from '../access/scopes.ts'
import type { AppDeps } from '../app-deps.ts'
import { ProblemError } from '../http/problem-catalogue.ts'
import type { OAuthKeys } from '../lib/derived-keys.ts'
import { approveConsent } from './consent-grant.ts'
import { fenceOfGrant, pickedProjects, projectsToPick } from './consent-projects.ts'
import {
  PAGE_HEADERS,
  renderConsent,
  renderErrorPage,
  renderSignIn,
  renderWorkspaceChoice,
} from './interaction-views.ts'
import { PROJECT_PICKER_ON } from './oauth-provider.ts'
import { allowSignInAttempt, matchSignIn } from './sign-in.ts'

type Form = Record<string, string | string[] | undefined>
/** The person an interaction is signed in as. */
type Person = {
  id: string
  name: string
  email: string
  workspace_id: string
  role: Role
  workspace_name: string
}
/** The app an interaction is for, as the pages need it. */
type Client = { name: string; workspaceId: string | null }
type Step = (
  request: FastifyRequest,
  reply: FastifyReply,
  interaction: Interaction,
) => Promise<FastifyReply>

/** What the interaction pages need besides the app's dependencies. */
export interface InteractionDeps {
  deps: AppDeps
  provider: Provider
  keys: OAuthKeys
}

const BASE = '/oauth/interaction'
const PAGE = { config: { public: true }, schema: { hide: true } } as const
const WRONG_SIGN_IN = 'That email and password do not match an account that can use this app.'
const TOO_MANY = 'Too many sign-in attempts. Wait a minute and try again.'
const PICK_PROJECTS = 'Pick at least one of the projects listed (at most 100).'

/**
 * The sign-in and consent pages oidc-provider sends browsers to. Plain HTML forms, no script.
 * Every POST carries a token bound to its interaction (HMAC of the uid) and is accepted only with
 * the interaction's own cookie, which is SameSite=Lax and so never sent by another site's form.
 */
export function interactionRoutes(input: InteractionDeps) {
  const { deps, provider, keys } = input
  return async (app: FastifyInstance) => {
    await app.register(formBody, { bodyLimit: 16 * 1024 })
    // These pages answer bad input with their own error page, not problem+json. The one rule on
    // text (http/storable-text.hook.ts) is the only validation that runs here; anything else goes
    // on to the app's error handler.
    app.setErrorHandler((error, _request, reply) => {
      if (!(error instanceof ProblemError) || error.code !== 'validation_failed') throw error
      return html(
        reply,
        400,
        renderErrorPage(
          'invalid_request',
          'The form or the address contains characters that are not allowed (NUL or unpaired surrogates).',
        ),
      )
    })

    app.get(`${BASE}/:uid`, PAGE, async (request, reply) => {
      const interaction = await details(request, reply)
      if (!interaction) return reply
      const refusal = scopeRefusal(interaction)
      if (refusal)
        return finish(request, reply, { error: 'invalid_scope', error_description: refusal })
      return showStep(reply, interaction)
    })

    // Each POST is one answer to the interaction: checked, then handed to its step.
    const postStep = (name: string, step: Step) =>
      app.post(`${BASE}/:uid/${name}`, PAGE, async (request, reply) => {
        const interaction = await details(request, reply)
        if (!interaction) return reply
        if (!formIsOurs(request, interaction)) {
          return html(
            reply,
            403,
            renderErrorPage(
              'invalid_request',
              'The form could not be verified. Reload the page and try again.',
            ),
          )
        }
        return step(request, reply, interaction)
      })

    postStep('login', async (request, reply, interaction) => {
      const form = request.body as Form
      const email = text(form.email)
      const password = text(form.password)
      const client = await clientOf(interaction)
      const allowed = await allowSignInAttempt(deps.rateLimits, {
        email,
        ip: request.ip,
        perMinute: deps.config.oauthSignInsPerMinute,
        now: deps.clock.now(),
      })
      if (!allowed) {
        reply.header('retry-after', '60')
        return signInPage(reply, 429, interaction, client.name, { email, error: TOO_MANY })
      }
      const matches = await matchSignIn(deps.db, email, password, client.workspaceId)
      const [only] = matches
      if (!only)
        return signInPage(reply, 401, interaction, client.name, { email, error: WRONG_SIGN_IN })
      if (matches.length === 1) return signIn(request, reply, interaction, only.personId)
      return html(
        reply,
        200,
        renderWorkspaceChoice({
          action: `${BASE}/${interaction.uid}/workspace`,
          csrf: formToken(interaction.uid),
          options: matches.map((match) => ({
            value: `${match.personId}.${formToken(interaction.uid, match.personId)}`,
            workspaceName: match.workspaceName,
            role: match.role,
          })),
        }),
      )
    })

    postStep('workspace', async (request, reply, interaction) => {
      // The choice names a person and proves that person's password was just verified.
      const [personId = '', proof = ''] = text((request.body as Form).choice).split('.')
      if (!sameToken(proof, formToken(interaction.uid, personId))) {
        return html(
          reply,
          400,
          renderErrorPage('invalid_request', 'The workspace choice is not valid.'),
        )
      }
      return signIn(request, reply, interaction, personId)
    })

    postStep('switch', async (_request, reply, interaction) => {
      const client = await clientOf(interaction)
      return signInPage(reply, 200, interaction, client.name)
    })

    postStep('confirm', async (request, reply, interaction) => {
      const person = await signedInPerson(interaction)
      if (interaction.prompt.name !== 'consent' || !person) {
        return html(reply, 400, renderErrorPage('invalid_request', 'Sign in first.'))
      }
      if (text((request.body as Form).decision) !== 'approve') {
        return finish(request, reply, {
          error: 'access_denied',
          error_description: 'The user denied the request.',
        })
      }
      let projectIds: string[] | null = null
      if (offersProjects(interaction, await fenceOfGrant(deps.db, interaction.grantId))) {
        projectIds = await pickedProjects(deps.db, person, list((request.body as Form).project_ids))
        if (!projectIds) return consentPage(reply, 400, interaction, person, PICK_PROJECTS)
      }
      const grantId = await approveConsent({
        db: deps.db,
        provider,
        request,
        interaction,
        person,
        projectIds,
        now: deps.clock.now(),
      })
      return finish(request, reply, { consent: { grantId } }, true)
    })

    /** The interaction of this request, or null after answering with an error page. */
    async function details(
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<Interaction | null> {
      try {
        const interaction = await provider.interactionDetails(request.raw, reply.raw)
        if (interaction.uid === (request.params as { uid: string }).uid) return interaction
      } catch {
        // no interaction cookie, or an expired interaction: the same page below
      }
      html(
        reply,
        400,
        renderErrorPage(
          'invalid_request',
          'This sign-in has expired or was opened in another browser. Start again from the app.',
        ),
      )
      return null
    }

    function formIsOurs(request: FastifyRequest, interaction: Interaction): boolean {
      const origin = request.headers.origin
      const sameOrigin = origin === undefined || origin === new URL(deps.config.publicUrl).origin
      const csrf = text((request.body as Form | undefined)?.csrf)
      return sameOrigin && sameToken(csrf, formToken(interaction.uid))
    }

    async function showStep(reply: FastifyReply, interaction: Interaction) {
      const client = await clientOf(interaction)
      const person = await signedInPerson(interaction, client)
      // A browser signed in as someone the app may not serve signs in again.
      if (interaction.prompt.name === 'login' || !person) {
        return signInPage(reply, 200, interaction, client.name)
      }
      return consentPage(reply, 200, interaction, person, undefined, client)
    }

    async function consentPage(
      reply: FastifyReply,
      status: number,
      interaction: Interaction,
      person: Person,
      error?: string,
      known?: Client,
    ) {
      const client = known ?? (await clientOf(interaction))
      const fence = await fenceOfGrant(deps.db, interaction.grantId)
      const projects = offersProjects(interaction, fence)
        ? (await projectsToPick(deps.db, person)).map((project) => ({
            ...project,
            checked: fence?.includes(project.id) ?? false,
          }))
        : undefined
      return html(
        reply,
        status,
        renderConsent({
          action: `${BASE}/${interaction.uid}/confirm`,
          switchAction: `${BASE}/${interaction.uid}/switch`,
          csrf: formToken(interaction.uid),
          clientName: client.name,
          personName: person.name,
          email: person.email,
          workspaceName: person.workspace_name,
          scopes: requestedScopes(interaction),
          ...(projects && { projects }),
          ...(error !== undefined && { error }),
        }),
      )
    }

    /**
     * Whether the consent page offers the project choice: the app asked for it, or the grant it
     * would extend is fenced already (a new approval never silently lifts a fence).
     */
    function offersProjects(interaction: Interaction, fence: string[] | null): boolean {
      return interaction.params.project_picker === PROJECT_PICKER_ON || fence !== null
    }

    /**
     * The person the browser is signed in as, if the app may act for them: the one check of a
     * workspace-bound app that every step (page, consent, sign-in) goes through.
     */
    async function signedInPerson(interaction: Interaction, client?: Client) {
      const accountId = interaction.session?.accountId
      return accountId ? allowedPerson(interaction, accountId, client) : undefined
    }

    // The person, if the interaction's app may act for them: a workspace-bound app, only for
    // people of its workspace.
    async function allowedPerson(interaction: Interaction, personId: string, client?: Client) {
      const app = client ?? (await clientOf(interaction))
      const person = await personOf(personId)
      return person && (app.workspaceId === null || app.workspaceId === person.workspace_id)
        ? person
        : undefined
    }

    // Ends the sign-in step as a person whose password was just verified, if the app may serve
    // them.
    async function signIn(
      request: FastifyRequest,
      reply: FastifyReply,
      interaction: Interaction,
      personId: string,
    ) {
      if (!(await allowedPerson(interaction, personId))) {
        const client = await clientOf(interaction)
        return signInPage(reply, 401, interaction, client.name, { error: WRONG_SIGN_IN })
      }
      return finish(request, reply, { login: { accountId: personId } })
    }

    function signInPage(
      reply: FastifyReply,
      status: number,
      interaction: Interaction,
      clientName: string,
      extra: { email?: string; error?: string } = {},
    ) {
      const action = `${BASE}/${interaction.uid}/login`
      return html(
        reply,
        status,
        renderSignIn({ action, csrf: formToken(interaction.uid), clientName, ...extra }),
      )
    }

    async function finish(
      request: FastifyRequest,
      reply: FastifyReply,
      result: Record<string, unknown>,
      merge = false,
    ) {
      const to = await provider.interactionResult(request.raw, reply.raw, result, {
        mergeWithLastSubmission: merge,
      })
      return reply.header('cache-control', 'no-store').redirect(to, 303)
    }

    async function clientOf(interaction: Interaction): Promise<Client> {
      const row = await deps.db
        .selectFrom('oauth_clients')
        .select(['name', 'workspace_id'])
        .where('id', '=', String(interaction.params.client_id))
        .executeTakeFirst()
      return { name: row?.name ?? 'An app', workspaceId: row?.workspace_id ?? null }
    }

    function personOf(personId: string): Promise<Person | undefined> {
      return deps.db
        .selectFrom('people as p')
        .innerJoin('workspaces as w', 'w.id', 'p.workspace_id')
        .select([
          'p.id',
          'p.name',
          'p.email',
          'p.workspace_id',
          'p.role',
          'w.name as workspace_name',
        ])
        .where('p.id', '=', personId)
        .executeTakeFirst()
    }

    function formToken(uid: string, subject = ''): string {
      return createHmac('sha256', keys.formKey).update(`${uid}\n${subject}`).digest('base64url')
    }
  }
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

function text(value: string | string[] | undefined): string {
  return typeof value === 'string' ? value : ''
}

// A form field that may repeat (checkboxes), as a list.
function list(value: string | string[] | undefined): string[] {
  if (value === undefined) return []
  return typeof value === 'string' ? [value] : value
}

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(body)
}

function requestedScopes(interaction: Interaction): string[] {
  return [
    ...new Set(
      String(interaction.params.scope ?? '')
        .split(' ')
        .filter(Boolean),
    ),
  ]
}

/** Why the requested scopes cannot be granted, or null when they can. */
function scopeRefusal(interaction: Interaction): string | null {
  const scopes = requestedScopes(interaction)
  if (scopes.length === 0) return 'Ask for at least one scope.'
  const unknown = scopes.filter((scope) => !isKnownScope(scope))
  return unknown.length > 0 ? `Unknown scope: ${unknown.join(' ')}.` : null
}
