import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppDeps } from '../app-deps.ts'
import { relyingPartyOf } from '../sso/relying-party.ts'
import { apiKeyRoutes } from './api-keys.routes.ts'
import { assetRoutes } from './assets.routes.ts'
import { auditPageRoutes } from './audit-page.routes.ts'
import { formBodiesOnly } from './form-bodies.ts'
import { joinRoutes } from './join.routes.ts'
import { notFoundPage } from './message.view.ts'
import { newProjectRoutes } from './new-project.routes.ts'
import { oauthAppRoutes } from './oauth-apps.routes.ts'
import { pageErrorHandler } from './page-errors.ts'
import { sendPage } from './page-headers.ts'
import { peoplePageRoutes } from './people-page.routes.ts'
import { projectMemberRoutes } from './project-members.routes.ts'
import { resourcePageRoutes } from './resource-pages.routes.ts'
import { setPasswordRoutes } from './set-password.routes.ts'
import { setupRoutes } from './setup.routes.ts'
import { signInRoutes } from './sign-in.routes.ts'
import { ssoRoutes } from './sso.routes.ts'
import { teamsPageRoutes } from './teams-page.routes.ts'
import { loadWebContext } from './web-context.ts'
import { webCookies } from './web-cookies.ts'
import { webhookPageRoutes } from './webhook-pages.routes.ts'
import { workspaceTokenRoutes } from './workspace-tokens.routes.ts'

// Paths of the API and the protocols beside it: their unknown paths keep problem+json 404s.
const API_PATHS = /^\/(v1|mcp|oauth|\.well-known|healthz|readyz)(\/|$|\?)/

/**
 * The dashboard: sign-in and the resource pages at the root of PUBLIC_URL, beside the API.
 * Requires @fastify/cookie on the root instance (app.ts), so the 404 page can read the session.
 */
export function webPlugin(deps: AppDeps) {
  const cookies = webCookies(deps.config.publicUrl)
  return async (app: FastifyInstance) => {
    await formBodiesOnly(app)
    app.decorateRequest('web', null)
    // The stylesheet and script need no session: served outside the pages' scope, so fetching
    // them never reads the sessions table.
    await app.register(assetRoutes())
    await app.register(async (pages) => {
      pages.addHook('onRequest', async (request) => {
        request.web = await loadWebContext(deps, cookies, request)
      })
      pages.setErrorHandler(pageErrorHandler)
      await pages.register(signInRoutes(deps, cookies))
      const party = relyingPartyOf(deps.config)
      if (party) await pages.register(ssoRoutes(deps, cookies, party))
      await pages.register(setupRoutes(deps, cookies))
      await pages.register(setPasswordRoutes(deps, cookies))
      await pages.register(joinRoutes(deps, cookies))
      await pages.register(resourcePageRoutes(deps))
      await pages.register(webhookPageRoutes(deps))
      await pages.register(auditPageRoutes(deps))
      await pages.register(peoplePageRoutes(deps))
      await pages.register(teamsPageRoutes(deps))
      await pages.register(projectMemberRoutes(deps))
      await pages.register(newProjectRoutes(deps))
      await pages.register(apiKeyRoutes(deps))
      await pages.register(oauthAppRoutes(deps))
      await pages.register(workspaceTokenRoutes(deps))
    })
  }
}

/**
 * The HTML 404 of a browser's GET on a path that is not the API's: true once it is sent, false to
 * leave the request to the API's problem+json 404. The page is the one hidden ids get.
 */
export function webNotFound(deps: AppDeps) {
  const cookies = webCookies(deps.config.publicUrl)
  return async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false
    if (API_PATHS.test(request.url)) return false
    // Browsers ask for text/html when they navigate; API clients (curl's */*) keep problem+json.
    if (!(request.headers.accept ?? '').includes('text/html')) return false
    const web = await loadWebContext(deps, cookies, request).catch(() => null)
    sendPage(reply, 404, notFoundPage(web))
    return true
  }
}
