import { presentOkr } from '../../graph/okrs/okrs.present.ts'
import { listOkrs } from '../../graph/okrs/okrs.queries.ts'
import { OkrRecord } from '../../graph/okrs/okrs.schemas.ts'
import type { RecordPart } from '../../graph/resources/load-record.ts'

/** An objective as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
export const okrRecord: RecordPart = {
  schema: OkrRecord,
  async load(deps, caller, id) {
    const { db, urls } = deps
    const { visibility } = caller
    const ids = [id]
    const [row] = await listOkrs(db, visibility, { ids }, null, 1)
    return row ? presentOkr(row, urls) : null
  },
}
