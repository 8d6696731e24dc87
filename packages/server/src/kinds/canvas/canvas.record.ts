import { presentCanvas } from '../../graph/canvases/canvases.present.ts'
import { listCanvases } from '../../graph/canvases/canvases.queries.ts'
import { CanvasRecord } from '../../graph/canvases/canvases.schemas.ts'
import type { RecordPart } from '../../graph/resources/load-record.ts'

/** A canvas as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
export const canvasRecord: RecordPart = {
  schema: CanvasRecord,
  async load(deps, caller, id) {
    const { db, urls } = deps
    const { visibility, readableKinds } = caller
    const ids = [id]
    const [row] = await listCanvases(db, visibility, readableKinds, { ids }, null, 1)
    return row ? presentCanvas(row, urls) : null
  },
}
