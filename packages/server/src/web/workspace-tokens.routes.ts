import type { FastifyInstance, FastifyReply } from 'fastify'
import { html } from 'ghtml'
import { canAdminister } from '../access/administration.ts'
import { scopesOfRole } from '../access/role-scopes.ts'
import type { AppDeps } from '../app-deps.ts'
import { idKind } from '../lib/ids.ts'
import { listOAuthGrants } from '../tokens/oauth-grants.queries.ts'
import { listIntegrations, ownerNames } from '../tokens/token-owners.queries.ts'
import { type ListedToken, listTokens } from '../tokens/tokens.queries.ts'
import { createWorkspaceToken } from '../tokens/workspace-tokens.commands.ts'
import { issuedPage } from './credential-pages.view.ts'
import { revocableToken, revokeRoutes } from './credential-revoke.routes.ts'
import { forbiddenFormPage, notFoundPage } from './message.view.ts'
import { revocableGrant } from './oauth-apps.routes.ts'
import { sendPage } from './page-headers.ts'
import { sendProblemPage } from './problem-page.ts'
import { SIGNED_IN_PAGE, type WebContext } from './web-context.ts'
import { formOf, isOwnForm, newFormKey, webIssue } from './web-write.ts'
import { TOKENS_PATH, type TokenFormState, workspaceTokensPage } from './workspace-tokens.view.ts'

const LIST_LIMIT = 200

// The API's rule (access/administration.ts): owners and admins manage every credential.
const administers = (web: WebContext) => canAdminister(web.caller.principal)

function field(value: unknown): string {
  return typeof value === 'string' ? value.trim() : ''
}

/**
 * The workspace's credentials page (`/settings/tokens`), for owners and admins only: anyone else
 * gets the 404 page of an unknown path. Every token and grant with its owner, revoke any, and
 * create workspace tokens for integrations (the secret shown once).
 */
export function workspaceTokenRoutes(deps: AppDeps) {
  return async (app: FastifyInstance) => {
    async function show(
      reply: FastifyReply,
      web: WebContext,
      status: number,
      form?: TokenFormState,
    ) {
      const { principal } = web.caller
      const now = deps.clock.now()
      const tokens = (await listTokens(deps.db, web.caller, {}, null, LIST_LIMIT, now)).slice(
        0,
        LIST_LIMIT,
      )
      const grants = (await listOAuthGrants(deps.db, web.caller, {}, null, LIST_LIMIT)).slice(
        0,
        LIST_LIMIT,
      )
      const ids = [
        ...tokens.map((token) => (token.person_id ?? token.integration_id) as string),
        ...grants.map((grant) => grant.person_id),
      ]
      const input = {
        tokens,
        grants,
        owners: await ownerNames(deps.db, principal.workspaceId, ids),
        integrations: await listIntegrations(deps.db, principal.workspaceId),
        allowed: scopesOfRole(web.session.role),
        formKey: newFormKey(),
        now,
      }
      return sendPage(reply, status, workspaceTokensPage(web, form ? { ...input, form } : input))
    }

    app.get(TOKENS_PATH, SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      if (!administers(web)) return sendPage(reply, 404, notFoundPage(web))
      return show(reply, web, 200)
    })

    app.post(TOKENS_PATH, SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      if (!isOwnForm(request, deps.config.publicUrl))
        return sendPage(reply, 403, forbiddenFormPage(web))
      if (!administers(web)) return sendPage(reply, 404, notFoundPage(web))
      const form = formOf(request)
      const name = field(form.name)
      const choice = field(form.integration)
      const newName = field(form.integration_name)
      const scopes = [form.scopes ?? []].flat().filter((scope) => typeof scope === 'string')
      const state = { name, checked: new Set(scopes) }
      const refuse = (error: string) => show(reply, web, 422, { ...state, error })
      if (name.length === 0 || name.length > 200)
        return refuse('Give the token a name (1 to 200 characters).')
      if (choice === 'new' && (newName.length === 0 || newName.length > 200))
        return refuse('Give the new integration a name (1 to 200 characters).')
      if (scopes.length === 0 || scopes.length > 50) return refuse('Choose at least one scope.')
      const integration = choice === 'new' ? { newName } : { id: choice }
      let issued: { secret: string | null; row: ListedToken | null }
      try {
        issued = await webIssue(
          deps,
          request,
          { operation: 'create workspace token', formKey: form.form_key },
          (w) => createWorkspaceToken(w, { name, integration, scopes }),
        )
      } catch (error) {
        return sendProblemPage(reply, web, error)
      }
      const { secret, row: token } = issued
      return sendPage(
        reply,
        201,
        issuedPage(web, {
          title: 'Workspace token created',
          what: token
            ? html`<p>The token “${token.name}” acts as its integration with
${token.scopes.length} scopes.</p>`
            : '',
          secret,
          back: TOKENS_PATH,
          current: TOKENS_PATH,
        }),
      )
    })

    await app.register(
      revokeRoutes(deps, {
        list: TOKENS_PATH,
        allowed: administers,
        async find(db, web, id, now) {
          if (idKind(id) === 'oauthGrant') {
            const [grant] = await listOAuthGrants(db, web.caller, { ids: [id] }, null, 1)
            return grant ? revocableGrant(grant) : null
          }
          const [token] = await listTokens(db, web.caller, { ids: [id] }, null, 1, now)
          return token && !token.revoked_at ? revocableToken(token) : null
        },
      }),
    )
  }
}
