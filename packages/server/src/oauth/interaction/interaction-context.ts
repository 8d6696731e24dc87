import type { FastifyReply, FastifyRequest } from 'fastify'
import type Provider from 'oidc-provider'
import type { Interaction } from 'oidc-provider'
import type { Role } from '../../access/principal.ts'
import type { AppDeps } from '../../app-deps.ts'
import { fromOwnPages, interactionCsrfToken, sameToken } from '../../web/csrf.ts'
import { forbiddenFormPage } from '../../web/message.view.ts'
import { sendPage } from '../../web/page-headers.ts'
import { seeOther } from '../../web/see-other.ts'
import type { SignInOffer } from '../../web/sign-in.view.ts'
import { formOf } from '../../web/web-write.ts'
import { interactionErrorPage } from './interaction-error.view.ts'

/** Where oidc-provider sends browsers for sign-in and consent: `/oauth/interaction/{uid}`. */
export const INTERACTION_BASE = '/oauth/interaction'

/** Route options of every interaction page: no bearer token, not in the OpenAPI document. */
export const PAGE = { config: { public: true }, schema: { hide: true } } as const

/** What the interaction pages are built from. */
export interface InteractionDeps {
  readonly deps: AppDeps
  readonly provider: Provider
}

/** The app an interaction is for, as the pages show it. */
export interface InteractionClient {
  readonly name: string
  /** The workspace whose people alone may authorize it; null for a server-wide app. */
  readonly workspaceId: string | null
}

/** A person the app may act for. */
export interface InteractionPerson {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly workspace_id: string
  readonly role: Role
  readonly workspace_name: string
}

/** One request's interaction, with what every step needs to answer it. */
export interface Step {
  readonly interaction: Interaction
  readonly client: InteractionClient
  /** The hidden `csrf` field of the interaction's forms. */
  readonly csrf: string
  /** Where a form of this interaction posts: `/oauth/interaction/{uid}/{name}`. */
  action(name: string): string
  /** What its sign-in page offers: the identity provider (`…/{uid}/sso`), passwords, or both. */
  readonly offer: SignInOffer
  /**
   * Sends a page of the interaction with the dashboard's headers; `form-action` also allows the
   * app's redirect URI, where a submission's redirects end.
   */
  send(reply: FastifyReply, status: number, page: string): FastifyReply
}

/** The shared work of the interaction steps: reading the interaction, checking forms, finishing. */
export interface InteractionContext {
  readonly provider: Provider
  /** The request's interaction, or null after answering with the expired page. */
  open(request: FastifyRequest, reply: FastifyReply): Promise<Step | null>
  /** As `open`, for a POST: null also after refusing a form that is not the interaction's own. */
  openForm(request: FastifyRequest, reply: FastifyReply): Promise<Step | null>
  /** The person the browser is signed in as, if the app may act for them. */
  signedInPerson(step: Step): Promise<InteractionPerson | undefined>
  /** The person, if the interaction's app may act for them. */
  allowedPerson(step: Step, personId: string): Promise<InteractionPerson | undefined>
  /** Ends the step with its result and sends the browser back to the provider (303). */
  finish(
    request: FastifyRequest,
    reply: FastifyReply,
    result: Record<string, unknown>,
    merge?: boolean,
  ): Promise<FastifyReply>
}

const EXPIRED =
  'This sign-in has expired or was opened in another browser. Start again from the app.'

/** Builds the context every step file shares. */
export function interactionContext(input: InteractionDeps): InteractionContext {
  const { deps, provider } = input
  const key = deps.webKeys.csrfKey

  async function open(request: FastifyRequest, reply: FastifyReply): Promise<Step | null> {
    let interaction: Interaction | undefined
    try {
      interaction = await provider.interactionDetails(request.raw, reply.raw)
    } catch {
      // no interaction cookie, or an expired interaction: the same page below
    }
    if (!interaction || interaction.uid !== (request.params as { uid?: string }).uid) {
      sendPage(reply, 400, interactionErrorPage('invalid_request', EXPIRED))
      return null
    }
    const uid = interaction.uid
    const formTargets = [formTarget(interaction)].filter((source) => source !== null)
    const action = (name: string) => `${INTERACTION_BASE}/${uid}/${name}`
    const { sso, passwordSignIn } = deps.config
    return {
      interaction,
      client: await clientOf(interaction),
      csrf: interactionCsrfToken(key, uid),
      action,
      offer: {
        passwords: passwordSignIn,
        ...(sso && { sso: { href: action('sso'), name: sso.name } }),
      },
      send: (reply, status, page) => sendPage(reply, status, page, { formTargets }),
    }
  }

  async function openForm(request: FastifyRequest, reply: FastifyReply) {
    const step = await open(request, reply)
    if (!step) return null
    const { csrf } = formOf(request)
    if (fromOwnPages(request, deps.config.publicUrl) && sameToken(csrf, step.csrf)) return step
    step.send(reply, 403, forbiddenFormPage(null))
    return null
  }

  async function clientOf(interaction: Interaction): Promise<InteractionClient> {
    const row = await deps.db
      .selectFrom('oauth_clients')
      .select(['name', 'workspace_id'])
      .where('id', '=', String(interaction.params.client_id))
      .executeTakeFirst()
    return { name: row?.name ?? 'An app', workspaceId: row?.workspace_id ?? null }
  }

  async function allowedPerson(step: Step, personId: string) {
    const person = await deps.db
      .selectFrom('people as p')
      .innerJoin('workspaces as w', 'w.id', 'p.workspace_id')
      .select(['p.id', 'p.name', 'p.email', 'p.workspace_id', 'p.role', 'w.name as workspace_name'])
      .where('p.id', '=', personId)
      // A provider session of a person deactivated since authorizes nothing.
      .where('p.deactivated_at', 'is', null)
      .executeTakeFirst()
    const { workspaceId } = step.client
    return person && (workspaceId === null || workspaceId === person.workspace_id)
      ? person
      : undefined
  }

  return {
    provider,
    open,
    openForm,
    allowedPerson,
    // The one check of a workspace-bound app that every step (page, consent, sign-in) goes through.
    async signedInPerson(step) {
      const accountId = step.interaction.session?.accountId
      return accountId ? allowedPerson(step, accountId) : undefined
    },
    async finish(request, reply, result, merge = false) {
      const to = await provider.interactionResult(request.raw, reply.raw, result, {
        mergeWithLastSubmission: merge,
      })
      // The authorization server's own address (its resume endpoint), sent as a path of the site.
      return seeOther(reply, to, deps.config.publicUrl)
    },
  }
}

/**
 * The CSP source of the app's redirect URI (checked by the provider before any page is shown):
 * its origin, or its private-use scheme (`com.example.app:`). An IPv6 literal is not a CSP host,
 * so a loopback `http://[::1]` allows `http:`.
 */
function formTarget(interaction: Interaction): string | null {
  const url = URL.parse(String(interaction.params.redirect_uri ?? ''))
  if (!url) return null
  if (url.protocol === 'http:' || url.protocol === 'https:')
    return url.hostname.startsWith('[') ? url.protocol : url.origin
  return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) ? url.protocol : null
}

/** The scopes an interaction asks for, each once, in the order asked. */
export function requestedScopes(interaction: Interaction): string[] {
  return [
    ...new Set(
      String(interaction.params.scope ?? '')
        .split(' ')
        .filter(Boolean),
    ),
  ]
}
