import { sql } from 'kysely'
import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import type { LinkEdges } from '../../graph/links/link-edges.ts'
import { presentCheckin } from '../../graph/okrs/okr-parts.present.ts'
import { listCheckins } from '../../graph/okrs/okr-parts.queries.ts'
import { CheckinRecord } from '../../graph/okrs/okr-parts.schemas.ts'
import type { RecordPart } from '../../graph/resources/load-record.ts'
import { pagePath } from '../../web/neighbour-names.ts'
import type { AnchoredPage } from '../../web/page-view.ts'
import type { Of } from '../../web/resource.view.ts'
import { summarizeCheckin } from './okr.summary.ts'

/** A check-in as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
const checkinRecord: RecordPart = {
  schema: CheckinRecord,
  async load(deps, caller, id) {
    const { db, urls } = deps
    const { visibility } = caller
    const ids = [id]
    const [row] = await listCheckins(db, visibility, { ids }, 1)
    return row ? presentCheckin(row, urls) : null
  },
}

/** The neighbours of a check-in, as `(rel, rank, id)` rows. */
const checkinLinks: LinkEdges = (ws, id) => sql`
    select 'okr' as rel, 1 as rank, objective_id as id from checkins where workspace_id = ${ws} and id = ${id}
    union all select 'author', 2, author_id from checkins where workspace_id = ${ws} and id = ${id}`

/** A check-in is shown on its objective's page, at its own anchor. */
const checkinPage: AnchoredPage = {
  anchor: (record, ws) => `${pagePath(ws, (record as Of<'checkin'>).objective_id)}#${record.id}`,
}

/** The check-in kind: its catalogue data and the parts its consumers read. */
export const checkinKind: KindDescriptor = {
  ...KINDS.checkin,
  summarize: summarizeCheckin,
  record: checkinRecord,
  links: checkinLinks,
  page: checkinPage,
}
