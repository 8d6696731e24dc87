import type { FastifyInstance, FastifyReply } from 'fastify'
import { accessReasons } from '../access/access-reasons.ts'
import type { AppDeps } from '../app-deps.ts'
import { kindOfId } from '../catalogue/catalogue.ts'
import { type AnyRecord, loadRecord } from '../graph/resources/load-record.ts'
import { sendHome } from './home-page.ts'
import { notFoundPage } from './message.view.ts'
import { neighbourNames, pagePath } from './neighbour-names.ts'
import { sendPage } from './page-headers.ts'
import { type PageParts, resourcePage } from './resource.view.ts'
import { seeOther } from './see-other.ts'
import { SIGNED_IN_PAGE, type WebContext } from './web-context.ts'

// Only a workspace id's shape routes here, so `/v1/nope/x` stays the API's problem+json 404.
const WORKSPACE = ':workspaceId(^wsp_[0-9a-z]+$)'

/**
 * The read-only pages at the resources' own URLs: `/` (home), `/{workspace_id}` and
 * `/{workspace_id}/{type}/{id}`. Every read is one of the API's queries with the session's
 * caller, so a page shows exactly what the person's API key would.
 */
export function resourcePageRoutes(deps: AppDeps) {
  return async (app: FastifyInstance) => {
    app.get('/', SIGNED_IN_PAGE, async (request, reply) =>
      sendHome(deps, reply, request.web as WebContext, 200),
    )

    app.get(`/${WORKSPACE}`, SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      const { workspaceId } = request.params as { workspaceId: string }
      if (workspaceId !== web.session.workspaceId) return notFound(reply, web)
      return seeOther(reply, '/')
    })

    app.get(`/${WORKSPACE}/:type/:id`, SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      const { workspaceId, type, id } = request.params as {
        workspaceId: string
        type: string
        id: string
      }
      const kind = kindOfId(id)
      const page = kind?.page
      if (workspaceId !== web.session.workspaceId || !page || kind?.name !== type)
        return notFound(reply, web)
      const record = await loadRecord(deps, web.caller, id)
      if (!record) return notFound(reply, web)
      if ('anchor' in page) return seeOther(reply, page.anchor(record, workspaceId))
      const parts = (await page.parts?.({ deps, caller: web.caller }, record)) ?? {}
      // The same reasons as GET /v1/resources/:id/access; the projects and teams they come
      // through are named (and linked) only when the viewer may open them.
      const reasons = await accessReasons(deps.db, web.caller.principal, id)
      const viaIds = reasons.map((reason) => reason.via_id)
      const names = await neighbourNames(deps, web.caller, [
        ...neighbourIds(record, parts),
        ...viaIds,
      ])
      // The lists' own items came through the visibility filter: they link without a lookup.
      for (const item of Object.values(parts).flat()) {
        const name = 'title' in item ? item.title : 'name' in item ? item.name : null
        if (typeof name === 'string')
          names.set(item.id, { name, path: pagePath(workspaceId, item.id) })
      }
      const content = page.content(record, parts, names)
      return sendPage(reply, 200, resourcePage(web, record, content, names, reasons))
    })
  }
}

function notFound(reply: FastifyReply, web: WebContext) {
  return sendPage(reply, 404, notFoundPage(web))
}

/** Every id a page may name, so their names are fetched in one round. */
function neighbourIds(record: AnyRecord, parts: PageParts): string[] {
  const ids: string[] = []
  const take = (value: unknown) => {
    if (typeof value === 'string') ids.push(value)
    else if (Array.isArray(value)) for (const item of value) take(item)
  }
  const fields = [
    'owner_id',
    'assignee_id',
    'creator_id',
    'project_id',
    'parent_id',
    'canvas_id',
    'team_id',
    'author_id',
    'actor_id',
    'member_ids',
    'team_ids',
    'teams',
    'links',
  ]
  for (const item of [record, ...Object.values(parts).flat()]) {
    const fieldsOf = item as unknown as Record<string, unknown>
    for (const field of fields) take(fieldsOf[field])
  }
  return ids
}
