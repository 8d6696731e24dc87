import type { FastifyInstance, FastifyReply } from 'fastify'
import { html } from 'ghtml'
import { scopesOfRole } from '../access/role-scopes.ts'
import type { AppDeps } from '../app-deps.ts'
import type { Db } from '../db/database.ts'
import { projectChoices } from '../graph/projects/project-choices.ts'
import { createApiKey, rotateApiKey } from '../tokens/tokens.commands.ts'
import { type ListedToken, listTokens } from '../tokens/tokens.queries.ts'
import { DEFAULT_OVERLAP_SECONDS, MAX_OVERLAP_SECONDS } from '../tokens/tokens.schemas.ts'
import {
  API_KEYS_PATH,
  apiKeysPage,
  isRotatable,
  type KeyFormState,
  rotateKeyPage,
} from './api-keys.view.ts'
import { issuedPage } from './credential-pages.view.ts'
import { revocableToken, revokeRoutes } from './credential-revoke.routes.ts'
import { KEY_LIFETIMES } from './key-limits.view.ts'
import { forbiddenFormPage, notFoundPage, refusedPage } from './message.view.ts'
import { sendPage } from './page-headers.ts'
import { sendProblemPage } from './problem-page.ts'
import { when } from './view-parts.ts'
import { SIGNED_IN_PAGE, type WebContext } from './web-context.ts'
import { formOf, isOwnForm, newFormKey, webIssue } from './web-write.ts'

// Enough for anyone's own keys; the API pages through more.
const LIST_LIMIT = 200
const DAY_MS = 24 * 60 * 60 * 1000

/** One of the person's own API keys by id, or null (someone else's keys are not on this page). */
async function ownKey(db: Db, web: WebContext, id: string, now: Date) {
  const filters = { ids: [id], type: 'api_key', owner_id: web.session.personId }
  const [key] = await listTokens(db, web.caller, filters, null, 1, now)
  return key ?? null
}

/** A form field as one string ('' when absent or repeated). */
function field(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/**
 * The API keys page (`/settings/api-keys`): the person's own keys, create, rotate and revoke, with
 * the API's own commands (tokens.commands.ts) run through `webIssue` (web-write.ts).
 */
export function apiKeyRoutes(deps: AppDeps) {
  return async (app: FastifyInstance) => {
    async function showList(
      reply: FastifyReply,
      web: WebContext,
      status: number,
      form?: KeyFormState,
    ) {
      const now = deps.clock.now()
      const filters = { type: 'api_key', owner_id: web.session.personId }
      const keys = await listTokens(deps.db, web.caller, filters, null, LIST_LIMIT, now)
      const allowed = scopesOfRole(web.session.role)
      const projects = await projectChoices(deps.db, web.caller.visibility)
      const input = {
        keys: keys.slice(0, LIST_LIMIT),
        now,
        allowed,
        projects,
        formKey: newFormKey(),
      }
      return sendPage(reply, status, apiKeysPage(web, form ? { ...input, form } : input))
    }

    app.get(API_KEYS_PATH, SIGNED_IN_PAGE, async (request, reply) =>
      showList(reply, request.web as WebContext, 200),
    )

    app.post(API_KEYS_PATH, SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      if (!isOwnForm(request, deps.config.publicUrl))
        return sendPage(reply, 403, forbiddenFormPage(web))
      const form = formOf(request)
      const name = field(form.name).trim()
      const scopes = [form.scopes ?? []].flat().filter((scope) => typeof scope === 'string')
      const projectIds = [form.project_ids ?? []].flat().filter((id) => typeof id === 'string')
      const lifetime = field(form.lifetime)
      const state = { name, checked: new Set(scopes), projects: new Set(projectIds), lifetime }
      if (name.length === 0 || name.length > 200)
        return showList(reply, web, 422, {
          ...state,
          error: 'Give the key a name (1 to 200 characters).',
        })
      if (scopes.length === 0 || scopes.length > 50)
        return showList(reply, web, 422, { ...state, error: 'Choose at least one scope.' })
      const days = KEY_LIFETIMES.some(([value]) => value === lifetime)
        ? Number(lifetime)
        : Number.NaN
      if (Number.isNaN(days))
        return showList(reply, web, 422, { ...state, error: 'Choose when the key stops working.' })
      if (projectIds.length > 100)
        return showList(reply, web, 422, { ...state, error: 'Choose at most 100 projects.' })
      const limits = {
        ...(projectIds.length > 0 && { project_ids: [...new Set(projectIds)] }),
        ...(days > 0 && {
          expires_at: new Date(deps.clock.now().getTime() + days * DAY_MS).toISOString(),
        }),
      }
      let issued: { secret: string | null; row: ListedToken | null }
      try {
        issued = await webIssue(
          deps,
          request,
          { operation: 'create api key', formKey: form.form_key },
          (w) => createApiKey(w, { name, scopes, ...limits }),
        )
      } catch (error) {
        return sendProblemPage(reply, web, error)
      }
      const { secret, row: key } = issued
      return sendPage(
        reply,
        201,
        issuedPage(web, {
          title: 'Key created',
          what: key
            ? html`<p>The key “${key.name}” acts as you with ${key.scopes.length} scopes.</p>`
            : '',
          secret,
          back: API_KEYS_PATH,
          current: API_KEYS_PATH,
        }),
      )
    })

    app.get(`${API_KEYS_PATH}/:id/rotate`, SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      const { id } = request.params as { id: string }
      const key = await ownKey(deps.db, web, id, deps.clock.now())
      if (!key || !isRotatable(key, deps.clock.now()))
        return sendPage(reply, 404, notFoundPage(web))
      return sendPage(reply, 200, rotateKeyPage(web, key, newFormKey()))
    })

    app.post(`${API_KEYS_PATH}/:id/rotate`, SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      if (!isOwnForm(request, deps.config.publicUrl))
        return sendPage(reply, 403, forbiddenFormPage(web))
      const form = formOf(request)
      const { id } = request.params as { id: string }
      const overlap = overlapOf(field(form.overlap_seconds))
      if (overlap === undefined)
        return sendPage(reply, 422, refusedPage(web, 'Choose how long the old key keeps working.'))
      let issued: {
        secret: string | null
        row: { row: ListedToken; previousExpiresAt: Date } | null
      }
      try {
        issued = await webIssue(
          deps,
          request,
          { operation: 'rotate api key', formKey: form.form_key },
          async (w) => {
            const made = await rotateApiKey(w, id, overlap)
            return { secret: made.secret, row: made }
          },
        )
      } catch (error) {
        return sendProblemPage(reply, web, error)
      }
      const { secret, row: rotated } = issued
      return sendPage(
        reply,
        201,
        issuedPage(web, {
          title: 'Key rotated',
          what: rotated
            ? html`<p>The new key “${rotated.row.name}” replaces the old one, which keeps working
until !${when(rotated.previousExpiresAt.toISOString())}.</p>`
            : '',
          secret,
          back: API_KEYS_PATH,
          current: API_KEYS_PATH,
        }),
      )
    })

    await app.register(
      revokeRoutes(deps, {
        list: API_KEYS_PATH,
        async find(db, web, id, now) {
          const key = await ownKey(db, web, id, now)
          return key && !key.revoked_at ? revocableToken(key) : null
        },
      }),
    )
  }
}

/**
 * The overlap a rotate form asks for, in seconds, as the API reads `overlap_seconds`: left out or
 * blank is the API's default (a day), never none at all; anything but a whole number of seconds
 * from 0 to 7 days is undefined (refused).
 */
function overlapOf(value: string | undefined): number | undefined {
  const given = value?.trim() ?? ''
  if (given === '') return DEFAULT_OVERLAP_SECONDS
  if (!/^\d{1,7}$/.test(given)) return undefined
  const overlap = Number(given)
  return overlap <= MAX_OVERLAP_SECONDS ? overlap : undefined
}
