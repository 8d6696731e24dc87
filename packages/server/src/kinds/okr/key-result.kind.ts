import { sql } from 'kysely'
import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import type { LinkEdges } from '../../graph/links/link-edges.ts'
import { presentKeyResult } from '../../graph/okrs/okr-parts.present.ts'
import { findKeyResult } from '../../graph/okrs/okr-parts.queries.ts'
import { KeyResultRecord } from '../../graph/okrs/okr-parts.schemas.ts'
import type { RecordPart } from '../../graph/resources/load-record.ts'
import { pagePath } from '../../web/neighbour-names.ts'
import type { AnchoredPage } from '../../web/page-view.ts'
import type { Of } from '../../web/resource.view.ts'
import { summarizeKeyResult } from './okr.summary.ts'

/** A key result as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
const keyResultRecord: RecordPart = {
  schema: KeyResultRecord,
  async load(deps, caller, id) {
    const { db, urls } = deps
    const { visibility } = caller
    const row = await findKeyResult(db, visibility, id)
    return row ? presentKeyResult(row, urls) : null
  },
}

/** The neighbours of a key result, as `(rel, rank, id)` rows. */
const keyResultLinks: LinkEdges = (ws, id) =>
  sql`select 'okr' as rel, 1 as rank, objective_id as id from key_results where workspace_id = ${ws} and id = ${id}`

/** A key result is shown on its objective's page, at its own anchor. */
const keyResultPage: AnchoredPage = {
  anchor: (record, ws) => `${pagePath(ws, (record as Of<'key_result'>).objective_id)}#${record.id}`,
}

/** The key result kind: its catalogue data and the parts its consumers read. */
export const keyResultKind: KindDescriptor = {
  ...KINDS.key_result,
  summarize: summarizeKeyResult,
  record: keyResultRecord,
  links: keyResultLinks,
  page: keyResultPage,
}
