import { presentCheckin } from '../../graph/okrs/okr-parts.present.ts'
import { listCheckins } from '../../graph/okrs/okr-parts.queries.ts'
import { CheckinRecord } from '../../graph/okrs/okr-parts.schemas.ts'
import type { RecordPart } from '../../graph/resources/load-record.ts'

/** A check-in as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
export const checkinRecord: RecordPart = {
  schema: CheckinRecord,
  async load(deps, caller, id) {
    const { db, urls } = deps
    const { visibility } = caller
    const ids = [id]
    const [row] = await listCheckins(db, visibility, { ids }, 1)
    return row ? presentCheckin(row, urls) : null
  },
}
