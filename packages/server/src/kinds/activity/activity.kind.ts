import { sql } from 'kysely'
import { presentActivity } from '../../activity/activity.present.ts'
import { findActivity } from '../../activity/activity.queries.ts'
import { ActivityRecord } from '../../activity/activity.schemas.ts'
import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { activityRoutes } from '../../graph/activity/activity.routes.ts'
import type { LinkEdges } from '../../graph/links/link-edges.ts'
import type { RecordPart } from '../../graph/resources/load-record.ts'
import { pagePath } from '../../web/neighbour-names.ts'
import type { AnchoredPage } from '../../web/page-view.ts'
import type { Of } from '../../web/resource.view.ts'
import { summarizeActivity } from './activity.summary.ts'

/** An activity entry as `GET /v1/resources/:id` returns it; null when the caller may not see it. */
const activityRecord: RecordPart = {
  schema: ActivityRecord,
  async load(deps, caller, id) {
    const { db, urls } = deps
    const { visibility, readableKinds } = caller
    const ids = [id]
    const [row] = await findActivity(db, visibility, readableKinds, ids)
    return row ? presentActivity(row, urls) : null
  },
}

/** The neighbours of an activity entry, as `(rel, rank, id)` rows. */
const activityLinks: LinkEdges = (ws, id) => sql`
    select 'subject' as rel, 1 as rank, subject_id as id from activity where workspace_id = ${ws} and id = ${id}
    union all select 'actor', 2, actor_id from activity where workspace_id = ${ws} and id = ${id}`

/** An activity entry opens the page of its subject. */
const activityPage: AnchoredPage = {
  anchor: (record, ws) => pagePath(ws, (record as Of<'activity'>).subject_id),
}

/** The activity entry kind: its catalogue data and the parts its consumers read. */
export const activityKind: KindDescriptor = {
  ...KINDS.activity,
  summarize: summarizeActivity,
  record: activityRecord,
  links: activityLinks,
  page: activityPage,
  routes: activityRoutes,
}
