import type { FastifyInstance } from 'fastify'
import type { AppDeps } from '../app-deps.ts'
import type { Db } from '../db/database.ts'
import { revokeOAuthGrant } from '../tokens/oauth-grants.commands.ts'
import { listOAuthGrants, type OAuthGrantRow } from '../tokens/oauth-grants.queries.ts'
import { type Revocable, revokeRoutes } from './credential-revoke.routes.ts'
import { OAUTH_APPS_PATH, oauthAppsPage } from './oauth-apps.view.ts'
import { sendPage } from './page-headers.ts'
import { SIGNED_IN_PAGE, type WebContext } from './web-context.ts'

const LIST_LIMIT = 200

/** A grant as a revocation names it; revoking it is the API's `revokeOAuthGrant`. */
export function revocableGrant(grant: OAuthGrantRow): Revocable {
  return {
    label: `the app “${grant.client_name}”`,
    consequence: 'Its tokens and the keys made through it stop working at once.',
    revoke: (w) => revokeOAuthGrant(w.trx, w.actor, grant, w.now),
  }
}

async function ownGrant(db: Db, web: WebContext, id: string): Promise<OAuthGrantRow | null> {
  const filters = { ids: [id], person_id: web.session.personId }
  const [grant] = await listOAuthGrants(db, web.caller, filters, null, 1)
  return grant ?? null
}

/**
 * The OAuth apps page (`/settings/apps`): the person's own grants, with the API's query, and
 * their revocation with its command (oauth-grants.routes.ts does the same for the API).
 */
export function oauthAppRoutes(deps: AppDeps) {
  return async (app: FastifyInstance) => {
    app.get(OAUTH_APPS_PATH, SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      const filters = { person_id: web.session.personId }
      const grants = await listOAuthGrants(deps.db, web.caller, filters, null, LIST_LIMIT)
      return sendPage(reply, 200, oauthAppsPage(web, grants.slice(0, LIST_LIMIT)))
    })

    await app.register(
      revokeRoutes(deps, {
        list: OAUTH_APPS_PATH,
        async find(db, web, id) {
          const grant = await ownGrant(db, web, id)
          return grant ? revocableGrant(grant) : null
        },
      }),
    )
  }
}
