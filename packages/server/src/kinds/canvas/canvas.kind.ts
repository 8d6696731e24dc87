import { sql } from 'kysely'
import type { AccessReason } from '../../access/access-reason.ts'
import type { OwnReasons } from '../../access/access-reasons.ts'
import { type IndexRows, onlyIds } from '../../access/resource-index.ts'
import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { createdPosition } from '../../db/keyset.ts'
import { presentCanvas } from '../../graph/canvases/canvases.present.ts'
import { listCanvases } from '../../graph/canvases/canvases.queries.ts'
import { canvasRoutes } from '../../graph/canvases/canvases.routes.ts'
import { CanvasRecord } from '../../graph/canvases/canvases.schemas.ts'
import type { LinkEdges } from '../../graph/links/link-edges.ts'
import { type ListByIds, recordFromList } from '../../graph/resources/load-record.ts'
import { itemUrl, type ListSource } from '../../mcp/tools/list-source.ts'
import { readableNames } from '../../summaries/summary-queries.ts'
import { canvasPage } from './canvas.page.ts'
import { summarizeCanvas } from './canvas.summary.ts'

/**
 * A canvas's row: a private canvas is open to its owner and the people, teams and integrations it
 * is shared with; any other follows its project (no project: the whole workspace).
 */
const canvasIndexRows: IndexRows = {
  titled: true,
  rows: (
    ws,
    ids,
    source = sql.table('canvases'),
  ) => sql`select c.workspace_id, c.id, 'canvas', c.project_id, c.title, c.summary,
           case when c.visibility = 'private' then false
                when c.project_id is null then true
                else p.visibility = 'workspace' end,
           case when c.visibility = 'private' then array[c.owner_id] || array(
                  select s.principal_id from canvas_shares s
                  where s.workspace_id = c.workspace_id and s.canvas_id = c.id order by 1)
                when c.project_id is null then '{}'::text[]
                else array[c.project_id] end,
           c.created_at, c.updated_at
    from ${source} c
    left join projects p on p.workspace_id = c.workspace_id and p.id = c.project_id
    where c.workspace_id = ${ws} ${onlyIds(sql.ref('c.id'), ids)}`,
}

/** The canvases among `ids` the caller may open: what its record and page names read. */
const byIds: ListByIds<Awaited<ReturnType<typeof listCanvases>>[number]> = (deps, caller, ids) =>
  listCanvases(deps.db, caller.visibility, caller.readableKinds, { ids }, null, ids.length)

/** A canvas as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
const canvasRecord = recordFromList(CanvasRecord, byIds, (row, deps) =>
  presentCanvas(row, deps.urls),
)

/** The neighbours of a canvas, as `(rel, rank, id)` rows. */
const canvasLinks: LinkEdges = (ws, id) => sql`
    select 'project' as rel, 1 as rank, project_id as id from canvases where workspace_id = ${ws} and id = ${id} and project_id is not null
    union all select 'owner', 2, owner_id from canvases where workspace_id = ${ws} and id = ${id}
    union all select 'link', 3, target_id from canvas_links where workspace_id = ${ws} and canvas_id = ${id}
    union all select 'task', 4, id from tasks where workspace_id = ${ws} and canvas_id = ${id}
    union all select 'linked_from', 5, canvas_id from canvas_links where workspace_id = ${ws} and target_id = ${id}`

/** Why a canvas is open to the principal itself: the columns that put it in the ACL. */
const canvasReasons: OwnReasons = async (db, principal, id, holds, own) => {
  const reasons: AccessReason[] = []
  const canvas = await db
    .selectFrom('canvases')
    .select('owner_id')
    .where('workspace_id', '=', principal.workspaceId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  if (holds(canvas.owner_id)) reasons.push({ kind: 'owner' })
  const shares = await db
    .selectFrom('canvas_shares')
    .select(['person_id', 'team_id', 'integration_id'])
    .where('workspace_id', '=', principal.workspaceId)
    .where('canvas_id', '=', id)
    .where('principal_id', 'in', own)
    .execute()
  for (const share of shares) {
    if (share.team_id !== null) reasons.push({ kind: 'team_member', via_id: share.team_id })
    else reasons.push({ kind: 'shared_with' })
  }
  return reasons
}

/** How the MCP `list` tool reads canvases: the query of their `/v1` list. */
const canvasList: ListSource = {
  filters: ['project_id'],
  references: (f) => [['/project_id', 'project', f.project_id]],
  async load(session, filters, after, limit) {
    const { visibility, readableKinds } = session.caller
    const rows = await listCanvases(
      session.deps.db,
      visibility,
      readableKinds,
      filters,
      after,
      limit,
    )
    // Its project by name, as a person says it, where the caller may see it.
    const projectOf = (row: (typeof rows)[number]) => (row.project_visible ? row.project_id : null)
    const names = await readableNames(session.deps.db, session.caller, rows.map(projectOf))
    return rows.map((row) => ({
      id: row.id,
      type: 'canvas',
      title: row.title,
      url: itemUrl(session, 'canvas', row.id),
      facts: { project: names.get(projectOf(row) ?? '') ?? null },
      position: createdPosition(row),
    }))
  },
}

/** The canvas kind: its catalogue data and the parts its consumers read. */
export const canvasKind: KindDescriptor = {
  ...KINDS.canvas,
  summarize: summarizeCanvas,
  index: canvasIndexRows,
  list: canvasList,
  record: canvasRecord,
  links: canvasLinks,
  page: canvasPage,
  names: byIds,
  routes: canvasRoutes,
  reasons: canvasReasons,
  webhookEvents: {
    'canvas.updated': {
      title: 'CanvasUpdatedEvent',
      object: CanvasRecord,
      about: "A canvas's metadata (title, summary, project, links) changed.",
    },
  },
}
