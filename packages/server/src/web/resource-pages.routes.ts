import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { accessReasons } from '../access/access-reasons.ts'
import { presentActivity } from '../activity/activity.present.ts'
import { listActivity } from '../activity/activity.queries.ts'
import type { AppDeps } from '../app-deps.ts'
import { presentCanvas } from '../graph/canvases/canvases.present.ts'
import { listCanvases } from '../graph/canvases/canvases.queries.ts'
import { presentComment } from '../graph/comments/comments.present.ts'
import { listComments } from '../graph/comments/comments.queries.ts'
import { presentCheckin } from '../graph/okrs/okr-parts.present.ts'
import { listCheckins } from '../graph/okrs/okr-parts.queries.ts'
import { presentOkr } from '../graph/okrs/okrs.present.ts'
import { listOkrs } from '../graph/okrs/okrs.queries.ts'
import { presentProject } from '../graph/projects/projects.present.ts'
import { listProjects } from '../graph/projects/projects.queries.ts'
import { type AnyRecord, loadRecord } from '../graph/resources/load-record.ts'
import { presentTask } from '../graph/tasks/tasks.present.ts'
import { listTasks } from '../graph/tasks/tasks.queries.ts'
import { findWorkspace } from '../graph/workspace/workspace.queries.ts'
import { idKind } from '../lib/ids.ts'
import { homePage } from './home.view.ts'
import { notFoundPage } from './message.view.ts'
import { neighbourNames, pagePath, URL_TYPE_OF_KIND } from './neighbour-names.ts'
import { sendPage } from './page-headers.ts'
import { type PageParts, resourcePage } from './resource.view.ts'
import { requireSignIn, type WebContext } from './web-context.ts'

const PAGE = {
  config: { public: true },
  schema: { hide: true },
  preHandler: requireSignIn,
} as const
// Enough for a page at demo scale; longer lists will want paging when a page needs it.
const LIST_LIMIT = 200
// Only a workspace id's shape routes here, so `/v1/nope/x` stays the API's problem+json 404.
const WORKSPACE = ':workspaceId(^wsp_[0-9a-z]+$)'
const RECENT_ACTIVITY = 20

/**
 * The read-only pages at the resources' own URLs: `/` (home), `/{workspace_id}` and
 * `/{workspace_id}/{type}/{id}`. Every read is one of the API's queries with the session's
 * caller, so a page shows exactly what the person's API key would.
 */
export function resourcePageRoutes(deps: AppDeps) {
  return async (app: FastifyInstance) => {
    app.get('/', PAGE, async (request, reply) => {
      const web = request.web as WebContext
      const projects = await listProjects(deps.db, web.caller.visibility, {}, null, LIST_LIMIT)
      const { workspace, memberCount } = await findWorkspace(deps.db, web.caller.visibility)
      return sendPage(
        reply,
        200,
        homePage(web, {
          workspaceName: workspace.name,
          memberCount,
          projects: projects.slice(0, LIST_LIMIT).map((row) => presentProject(row, deps.urls)),
        }),
      )
    })

    app.get(`/${WORKSPACE}`, PAGE, async (request, reply) => {
      const web = request.web as WebContext
      const { workspaceId } = request.params as { workspaceId: string }
      if (workspaceId !== web.session.workspaceId) return notFound(reply, web)
      return reply.header('cache-control', 'no-store').redirect('/', 303)
    })

    app.get(`/${WORKSPACE}/:type/:id`, PAGE, async (request, reply) => {
      const web = request.web as WebContext
      const { workspaceId, type, id } = request.params as {
        workspaceId: string
        type: string
        id: string
      }
      const kind = idKind(id)
      if (workspaceId !== web.session.workspaceId || !kind || URL_TYPE_OF_KIND[kind] !== type)
        return notFound(reply, web)
      const record = await loadRecord(deps, web.caller, id)
      if (!record) return notFound(reply, web)
      const anchor = anchorTarget(record, workspaceId)
      if (anchor) return reply.header('cache-control', 'no-store').redirect(anchor, 303)
      const parts = await partsOf(request, record)
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
      return sendPage(reply, 200, resourcePage(web, record, parts, names, reasons))
    })

    /** The lists of a page, each through the API's query with the session's visibility. */
    async function partsOf(request: FastifyRequest, record: AnyRecord): Promise<PageParts> {
      const { db, urls } = deps
      const { visibility, readableKinds } = (request.web as WebContext).caller
      const activityOf = async (filters: { project_id?: string; resource_id?: string }) =>
        (await listActivity(db, visibility, readableKinds, filters, null, RECENT_ACTIVITY))
          .slice(0, RECENT_ACTIVITY)
          .map((row) => presentActivity(row, urls))
      const commentsOn = async (resourceId: string) =>
        (await listComments(db, visibility, { resource_id: resourceId }, null, LIST_LIMIT))
          .slice(0, LIST_LIMIT)
          .map((row) => presentComment(row, urls))
      switch (record.type) {
        case 'project': {
          const filters = { project_id: record.id }
          const [tasks, canvases, okrs, activity] = await Promise.all([
            listTasks(db, visibility, filters, null, LIST_LIMIT),
            listCanvases(db, visibility, readableKinds, filters, null, LIST_LIMIT),
            listOkrs(db, visibility, filters, null, LIST_LIMIT),
            activityOf(filters),
          ])
          return {
            tasks: tasks.slice(0, LIST_LIMIT).map((row) => presentTask(row, urls)),
            canvases: canvases.slice(0, LIST_LIMIT).map((row) => presentCanvas(row, urls)),
            okrs: okrs.slice(0, LIST_LIMIT).map((row) => presentOkr(row, urls)),
            activity,
          }
        }
        case 'task':
        case 'canvas': {
          const [comments, activity] = await Promise.all([
            commentsOn(record.id),
            activityOf({ resource_id: record.id }),
          ])
          return { comments, activity }
        }
        case 'okr': {
          const checkins = await listCheckins(db, visibility, { objective_id: record.id }, 100)
          return { checkins: checkins.map((row) => presentCheckin(row, urls)) }
        }
        case 'person': {
          const tasks = await listTasks(db, visibility, { assignee_id: record.id }, null, 50)
          return { tasks: tasks.slice(0, 50).map((row) => presentTask(row, urls)) }
        }
        default:
          return {}
      }
    }
  }
}

function notFound(reply: FastifyReply, web: WebContext) {
  return sendPage(reply, 404, notFoundPage(web))
}

/**
 * Resources shown inside another's page: a comment on its resource's page, a key result and a
 * check-in on their OKR's, each at its own `#id` anchor; an activity entry opens its subject.
 */
function anchorTarget(record: AnyRecord, ws: string): string | null {
  switch (record.type) {
    case 'comment':
      return `${pagePath(ws, record.resource_id)}#${record.id}`
    case 'key_result':
    case 'checkin':
      return `${pagePath(ws, record.objective_id)}#${record.id}`
    case 'activity':
      return pagePath(ws, record.subject_id)
    default:
      return null
  }
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
