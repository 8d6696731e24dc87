import { presentActivity } from '../../activity/activity.present.ts'
import { findActivity } from '../../activity/activity.queries.ts'
import { ActivityRecord } from '../../activity/activity.schemas.ts'
import type { RecordPart } from '../../graph/resources/load-record.ts'

/** An activity entry as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
export const activityRecord: RecordPart = {
  schema: ActivityRecord,
  async load(deps, caller, id) {
    const { db, urls } = deps
    const { visibility, readableKinds } = caller
    const ids = [id]
    const [row] = await findActivity(db, visibility, readableKinds, ids)
    return row ? presentActivity(row, urls) : null
  },
}
