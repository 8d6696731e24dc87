import { presentKeyResult } from '../../graph/okrs/okr-parts.present.ts'
import { findKeyResult } from '../../graph/okrs/okr-parts.queries.ts'
import { KeyResultRecord } from '../../graph/okrs/okr-parts.schemas.ts'
import type { RecordPart } from '../../graph/resources/load-record.ts'

/** A key result as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
export const keyResultRecord: RecordPart = {
  schema: KeyResultRecord,
  async load(deps, caller, id) {
    const { db, urls } = deps
    const { visibility } = caller
    const row = await findKeyResult(db, visibility, id)
    return row ? presentKeyResult(row, urls) : null
  },
}
