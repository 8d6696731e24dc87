import { sql } from 'kysely'
import type { AccessReason } from '../../access/access-reason.ts'
import type { OwnReasons } from '../../access/access-reasons.ts'
import { type IndexRows, onlyIds } from '../../access/resource-index.ts'
import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { createdPosition } from '../../db/keyset.ts'
import type { LinkEdges } from '../../graph/links/link-edges.ts'
import { CheckinCreated } from '../../graph/okrs/okr-parts.schemas.ts'
import { presentOkr } from '../../graph/okrs/okrs.present.ts'
import { listOkrs } from '../../graph/okrs/okrs.queries.ts'
import { okrRoutes } from '../../graph/okrs/okrs.routes.ts'
import { OkrRecord } from '../../graph/okrs/okrs.schemas.ts'
import { type ListByIds, recordFromList } from '../../graph/resources/load-record.ts'
import { itemUrl, type ListSource } from '../../mcp/tools/list-source.ts'
import { okrPage } from './okr.page.ts'
import { summarizeOkr } from './okr.summary.ts'

/**
 * An objective's row: open to the workspace when its visibility is `workspace`; its owner, and when
 * private its owning team.
 */
const okrIndexRows: IndexRows = {
  titled: true,
  rows: (
    ws,
    ids,
    source = sql.table('objectives'),
  ) => sql`select o.workspace_id, o.id, 'okr', o.project_id, o.title,
           coalesce((select string_agg(k.title, E'\n' order by k.position) from key_results k
                     where k.workspace_id = o.workspace_id and k.objective_id = o.id), ''),
           o.visibility = 'workspace',
           case when o.visibility = 'private' then array_remove(array[o.owner_id, o.team_id], null)
                else array[o.owner_id] end,
           o.created_at, o.updated_at
    from ${source} o where o.workspace_id = ${ws} ${onlyIds(sql.ref('o.id'), ids)}`,
}

/** The objectives among `ids` the caller may open: what its record and page names read. */
const byIds: ListByIds<Awaited<ReturnType<typeof listOkrs>>[number]> = (deps, caller, ids) =>
  listOkrs(deps.db, caller.visibility, { ids }, null, ids.length)

/** An objective as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
const okrRecord = recordFromList(OkrRecord, byIds, (row, deps) =>
  presentOkr(row, deps.urls, deps.clock.now()),
)

/** The neighbours of an objective, as `(rel, rank, id)` rows. */
const okrLinks: LinkEdges = (ws, id) => sql`
    select 'owner' as rel, 1 as rank, owner_id as id from objectives where workspace_id = ${ws} and id = ${id}
    union all select 'team', 2, team_id from objectives where workspace_id = ${ws} and id = ${id} and team_id is not null
    union all select 'project', 3, project_id from objectives where workspace_id = ${ws} and id = ${id} and project_id is not null
    union all select 'linked_from', 4, canvas_id from canvas_links where workspace_id = ${ws} and target_id = ${id}`

/** Why an objective is open to the principal itself: the columns that put it in the ACL. */
const okrReasons: OwnReasons = async (db, principal, id, holds) => {
  const reasons: AccessReason[] = []
  const objective = await db
    .selectFrom('objectives')
    .select(['owner_id', 'team_id', 'visibility'])
    .where('workspace_id', '=', principal.workspaceId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  if (holds(objective.owner_id)) reasons.push({ kind: 'owner' })
  // The owning team is in the ACL of a private objective only (resource-index.ts).
  if (objective.visibility === 'private' && objective.team_id !== null)
    if (holds(objective.team_id))
      reasons.push({ kind: 'objective_team', via_id: objective.team_id })
  return reasons
}

/** How the MCP `list` tool reads OKRs: the query of their `/v1` list. */
const okrList: ListSource = {
  filters: ['project_id', 'team_id', 'session'],
  references: (f) => [
    ['/project_id', 'project', f.project_id],
    ['/team_id', 'team', f.team_id],
  ],
  async load(session, filters, after, limit) {
    const { db, urls, clock } = session.deps
    // A task's statuses are not an objective's: `status` is not among this source's filters.
    const { status: _, ...okrFilters } = filters
    const rows = await listOkrs(db, session.caller.visibility, okrFilters, after, limit)
    return rows.map((row) => {
      const okr = presentOkr(row, urls, clock.now())
      return {
        id: row.id,
        type: 'okr',
        title: row.title,
        url: itemUrl(session, 'okr', row.id),
        // What "which OKRs are off track, and why" needs, without a fetch per objective.
        facts: {
          session: row.session,
          progress: percent(okr.progress),
          health: okr.health?.verdict ?? null,
          expected: okr.health ? percent(okr.health.expected_progress) : null,
          confidence: okr.confidence,
        },
        position: createdPosition(row),
      }
    })
  },
}

/** The OKR kind: its catalogue data and the parts its consumers read. */
export const okrKind: KindDescriptor = {
  ...KINDS.okr,
  summarize: summarizeOkr,
  index: okrIndexRows,
  list: okrList,
  record: okrRecord,
  links: okrLinks,
  page: okrPage,
  names: byIds,
  routes: okrRoutes,
  reasons: okrReasons,
  webhookEvents: {
    'okr.created': {
      title: 'OkrCreatedEvent',
      object: OkrRecord,
      about: 'An objective was created, with the key results created with it.',
    },
    'okr.updated': {
      title: 'OkrUpdatedEvent',
      object: OkrRecord,
      about:
        'An objective was changed, closed or reopened, or one of its key results was added or changed; `previous_attributes` holds the earlier values of its changed fields (`key_results` and `progress` for a key result).',
    },
    'okr.checkin': {
      title: 'OkrCheckinEvent',
      object: CheckinCreated,
      about:
        'A check-in was logged on a key result; with the key result and the objective progress.',
    },
  },
}

// A share as a whole percentage, as people say it.
function percent(share: number): string {
  return `${Math.round(share * 100)} %`
}
