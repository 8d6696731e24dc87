import { createHmac, timingSafeEqual } from 'node:crypto'
import formBody from '@fastify/formbody'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type Provider from 'oidc-provider'
import type { Interaction } from 'oidc-provider'
import { isKnownScope } from '../access/scopes.ts'
import type { AppDeps } from '../app-deps.ts'
import { recordAudit } from '../audit/audit-writer.ts'
import {
  PAGE_HEADERS,
  renderConsent,
  renderErrorPage,
  renderSignIn,
  renderWorkspaceChoice,
} from './interaction-views.ts'
import type { OAuthKeys } from './oauth-keys.ts'
import { allowSignInAttempt, matchSignIn } from './sign-in.ts'

type Form = Record<string, string | string[] | undefined>

/** What the interaction pages need besides the app's dependencies. */
export interface InteractionDeps {
  deps: AppDeps
  provider: Provider
  keys: OAuthKeys
}

const UID = '/oauth/interaction/:uid'

/**
 * The sign-in and consent pages oidc-provider sends browsers to. Plain HTML forms, no script.
 * Every POST carries a token bound to its interaction (HMAC of the uid) and is accepted only with
 * the interaction's own cookie, which is SameSite=Lax and so never sent by another site's form.
 */
export function interactionRoutes(input: InteractionDeps) {
  const { deps, provider, keys } = input
  return async (app: FastifyInstance) => {
    await app.register(formBody, { bodyLimit: 16 * 1024 })

    app.get(
      `${UID}`,
      { config: { public: true }, schema: { hide: true } },
      async (request, reply) => {
        const interaction = await details(request, reply)
        if (!interaction) return reply
        const refusal = scopeRefusal(interaction)
        if (refusal)
          return finish(request, reply, { error: 'invalid_scope', error_description: refusal })
        return showStep(request, reply, interaction)
      },
    )

    app.post(
      `${UID}/login`,
      { config: { public: true }, schema: { hide: true } },
      async (request, reply) => {
        const interaction = await details(request, reply)
        if (!interaction || !checkForm(request, reply, interaction)) return reply
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
          return html(
            reply,
            429,
            renderSignIn({
              action: `/oauth/interaction/${interaction.uid}/login`,
              csrf: formToken(interaction.uid),
              clientName: client.name,
              email,
              error: 'Too many sign-in attempts. Wait a minute and try again.',
            }),
          )
        }
        const matches =
          email && password ? await matchSignIn(deps.db, email, password, client.workspaceId) : []
        if (matches.length === 0) {
          return html(
            reply,
            401,
            renderSignIn({
              action: `/oauth/interaction/${interaction.uid}/login`,
              csrf: formToken(interaction.uid),
              clientName: client.name,
              email,
              error: 'That email and password do not match an account that can use this app.',
            }),
          )
        }
        if (matches.length === 1) {
          return finish(request, reply, {
            login: { accountId: (matches[0] as { personId: string }).personId },
          })
        }
        return html(
          reply,
          200,
          renderWorkspaceChoice({
            action: `/oauth/interaction/${interaction.uid}/workspace`,
            csrf: formToken(interaction.uid),
            options: matches.map((match) => ({
              value: `${match.personId}.${formToken(interaction.uid, match.personId)}`,
              workspaceName: match.workspaceName,
              role: match.role,
            })),
          }),
        )
      },
    )

    app.post(
      `${UID}/workspace`,
      { config: { public: true }, schema: { hide: true } },
      async (request, reply) => {
        const interaction = await details(request, reply)
        if (!interaction || !checkForm(request, reply, interaction)) return reply
        // The choice names a person and proves the password of that person was just verified.
        const [personId = '', proof = ''] = text((request.body as Form).choice).split('.')
        if (!sameToken(proof, formToken(interaction.uid, personId))) {
          return html(
            reply,
            400,
            renderErrorPage('invalid_request', 'The workspace choice is not valid.'),
          )
        }
        return finish(request, reply, { login: { accountId: personId } })
      },
    )

    app.post(
      `${UID}/switch`,
      { config: { public: true }, schema: { hide: true } },
      async (request, reply) => {
        const interaction = await details(request, reply)
        if (!interaction || !checkForm(request, reply, interaction)) return reply
        const client = await clientOf(interaction)
        return html(
          reply,
          200,
          renderSignIn({
            action: `/oauth/interaction/${interaction.uid}/login`,
            csrf: formToken(interaction.uid),
            clientName: client.name,
          }),
        )
      },
    )

    app.post(
      `${UID}/confirm`,
      { config: { public: true }, schema: { hide: true } },
      async (request, reply) => {
        const interaction = await details(request, reply)
        if (!interaction || !checkForm(request, reply, interaction)) return reply
        const accountId = interaction.session?.accountId
        if (interaction.prompt.name !== 'consent' || !accountId) {
          return html(reply, 400, renderErrorPage('invalid_request', 'Sign in first.'))
        }
        if (text((request.body as Form).decision) !== 'approve') {
          return finish(request, reply, {
            error: 'access_denied',
            error_description: 'The user denied the request.',
          })
        }
        const grantId = await approve(request, interaction, accountId)
        return finish(request, reply, { consent: { grantId } }, true)
      },
    )

    /** The interaction of this request, or null after answering with an error page. */
    async function details(
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<Interaction | null> {
      try {
        const interaction = await provider.interactionDetails(request.raw, reply.raw)
        if (interaction.uid !== (request.params as { uid: string }).uid)
          throw new Error('uid mismatch')
        return interaction
      } catch {
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
    }

    function checkForm(
      request: FastifyRequest,
      reply: FastifyReply,
      interaction: Interaction,
    ): boolean {
      const origin = request.headers.origin
      const sameOrigin = origin === undefined || origin === new URL(deps.config.publicUrl).origin
      if (
        sameOrigin &&
        sameToken(text((request.body as Form | undefined)?.csrf), formToken(interaction.uid))
      )
        return true
      html(
        reply,
        403,
        renderErrorPage(
          'invalid_request',
          'The form could not be verified. Reload the page and try again.',
        ),
      )
      return false
    }

    async function showStep(
      request: FastifyRequest,
      reply: FastifyReply,
      interaction: Interaction,
    ) {
      const client = await clientOf(interaction)
      const accountId = interaction.session?.accountId
      const person = accountId ? await personOf(accountId) : undefined
      const allowed =
        person && (client.workspaceId === null || client.workspaceId === person.workspace_id)
      if (interaction.prompt.name === 'login' || !person || !allowed) {
        return html(
          reply,
          200,
          renderSignIn({
            action: `/oauth/interaction/${interaction.uid}/login`,
            csrf: formToken(interaction.uid),
            clientName: client.name,
          }),
        )
      }
      void request
      return html(
        reply,
        200,
        renderConsent({
          action: `/oauth/interaction/${interaction.uid}/confirm`,
          switchAction: `/oauth/interaction/${interaction.uid}/switch`,
          csrf: formToken(interaction.uid),
          clientName: client.name,
          personName: person.name,
          email: person.email,
          workspaceName: person.workspace_name,
          scopes: requestedScopes(interaction),
        }),
      )
    }

    async function approve(
      request: FastifyRequest,
      interaction: Interaction,
      accountId: string,
    ): Promise<string> {
      const clientId = String(interaction.params.client_id)
      const existing = interaction.grantId
        ? await provider.Grant.find(interaction.grantId)
        : undefined
      const grant = existing ?? new provider.Grant({ accountId, clientId })
      const before = existing ? grantedScopes(existing) : null
      const missing = interaction.prompt.details as {
        missingOIDCScope?: string[]
        missingResourceScopes?: Record<string, string[]>
      }
      if (missing.missingOIDCScope?.length) grant.addOIDCScope(missing.missingOIDCScope.join(' '))
      for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
        grant.addResourceScope(resource, scopes.join(' '))
      }
      const grantId = await grant.save()
      const person = await personOf(accountId)
      if (person) {
        const userAgent = request.headers['user-agent']
        await recordAudit(
          deps.db,
          {
            workspaceId: person.workspace_id,
            actorId: accountId,
            tokenId: grantId,
            tokenKind: 'oauth',
            clientId,
            requestId: request.id,
            ip: request.ip,
            userAgent: typeof userAgent === 'string' ? userAgent : null,
          },
          {
            action: 'oauth_grant.approved',
            resourceId: grantId,
            resourceType: 'oauth_grant',
            before: before ? { client_id: clientId, scopes: before } : null,
            after: { client_id: clientId, scopes: grantedScopes(grant) },
          },
          deps.clock.now(),
        )
      }
      return grantId
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
      return reply.code(303).header('cache-control', 'no-store').redirect(to, 303)
    }

    async function clientOf(interaction: Interaction) {
      const row = await deps.db
        .selectFrom('oauth_clients')
        .select(['name', 'workspace_id'])
        .where('id', '=', String(interaction.params.client_id))
        .executeTakeFirst()
      return { name: row?.name ?? 'An app', workspaceId: row?.workspace_id ?? null }
    }

    function personOf(personId: string) {
      return deps.db
        .selectFrom('people as p')
        .innerJoin('workspaces as w', 'w.id', 'p.workspace_id')
        .select(['p.name', 'p.email', 'p.workspace_id', 'w.name as workspace_name'])
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

function grantedScopes(grant: { resources?: Record<string, string> | undefined }): string[] {
  return Object.values(grant.resources ?? {})
    .flatMap((scope) => scope.split(' '))
    .sort()
}
