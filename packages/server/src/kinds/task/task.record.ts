import type { RecordPart } from '../../graph/resources/load-record.ts'
import { presentTask } from '../../graph/tasks/tasks.present.ts'
import { listTasks } from '../../graph/tasks/tasks.queries.ts'
import { TaskRecord } from '../../graph/tasks/tasks.schemas.ts'

/** A task as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
export const taskRecord: RecordPart = {
  schema: TaskRecord,
  async load(deps, caller, id) {
    const { db, urls } = deps
    const { visibility } = caller
    const ids = [id]
    const [row] = await listTasks(db, visibility, { ids }, null, 1)
    return row ? presentTask(row, urls) : null
  },
}
