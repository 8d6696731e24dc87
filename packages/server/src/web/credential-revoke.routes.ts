import type { FastifyInstance } from 'fastify'
import { notFound } from '../api/problem-catalogue.ts'
import type { AppDeps } from '../app-deps.ts'
import type { Db } from '../db/database.ts'
import { revokeToken } from '../tokens/tokens.commands.ts'
import type { TokenRow } from '../tokens/tokens.queries.ts'
import type { WriteContext } from '../writes/write-context.ts'
import { confirmPage } from './credential-pages.view.ts'
import { forbiddenFormPage, notFoundPage } from './message.view.ts'
import { sendPage } from './page-headers.ts'
import { sendProblemPage } from './problem-page.ts'
import { seeOther } from './see-other.ts'
import { SIGNED_IN_PAGE, type WebContext } from './web-context.ts'
import { isOwnForm, webWrite } from './web-write.ts'

/** A credential found for a revocation: how to name it, and how to revoke it. */
export interface Revocable {
  /** "the key “deploy” (…abcd)", as the confirmation names it. */
  readonly label: string
  /** What stops working when it goes. */
  readonly consequence: string
  revoke(w: WriteContext): Promise<void>
}

/** An API key or workspace token as a revocation names it; revoking it is `revokeToken`. */
export function revocableToken(token: TokenRow): Revocable {
  const what = token.kind === 'api_key' ? 'key' : 'workspace token'
  return {
    label: `the ${what} “${token.name}” (…${token.last4})`,
    consequence: 'Anything using it is refused at once.',
    revoke: async (w) => {
      await revokeToken(w.trx, w.actor, token, w.now)
    },
  }
}

/** Where a list's revocations live and how they find what they revoke. */
export interface RevokeOptions {
  /** The list page (`/settings/api-keys`): revocations are `{list}/{id}/revoke`. */
  readonly list: string
  /** Whether the session may use these pages at all (a 404 otherwise). */
  readonly allowed?: (web: WebContext) => boolean
  /** The credential `id` names among those of the list, read in `db`; null when it is not. */
  find(db: Db, web: WebContext, id: string, now: Date): Promise<Revocable | null>
}

/**
 * GET `{list}/:id/revoke` (the confirmation) and POST (the revocation, then back to the list).
 * The lookup runs again inside the write's transaction, so what is revoked is what the rules
 * allow at that moment; an id that is not the list's gets the one 404 page.
 */
export function revokeRoutes(deps: AppDeps, options: RevokeOptions) {
  const path = `${options.list}/:id/revoke`
  const allowed = (web: WebContext) => !options.allowed || options.allowed(web)
  return async (app: FastifyInstance) => {
    app.get(path, SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      const { id } = request.params as { id: string }
      const found = allowed(web) ? await options.find(deps.db, web, id, deps.clock.now()) : null
      if (!found) return sendPage(reply, 404, notFoundPage(web))
      return sendPage(
        reply,
        200,
        confirmPage(web, {
          title: 'Revoke',
          lede: `Revoke ${found.label}? ${found.consequence} This cannot be undone.`,
          action: `${options.list}/${id}/revoke`,
          label: `Revoke ${found.label}`,
          back: options.list,
          current: options.list,
        }),
      )
    })

    app.post(path, SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      if (!isOwnForm(request, deps.config.publicUrl))
        return sendPage(reply, 403, forbiddenFormPage(web))
      if (!allowed(web)) return sendPage(reply, 404, notFoundPage(web))
      const { id } = request.params as { id: string }
      try {
        await webWrite(deps, request, { operation: `revoke ${options.list}` }, async (w) => {
          const found = await options.find(w.trx, web, id, w.now)
          if (!found) throw notFound()
          await found.revoke(w)
          return { status: 200, body: {} }
        })
      } catch (error) {
        return sendProblemPage(reply, web, error)
      }
      return seeOther(reply, options.list)
    })
  }
}
