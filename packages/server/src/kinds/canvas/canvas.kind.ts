import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { listCanvases } from '../../graph/canvases/canvases.queries.ts'
import { canvasIndexRows } from './canvas.index.ts'
import { canvasLinks } from './canvas.links.ts'
import { canvasList } from './canvas.list.ts'
import { canvasPage } from './canvas.page.ts'
import { canvasRecord } from './canvas.record.ts'
import { summarizeCanvas } from './canvas.summary.ts'

/** The canvas kind: its catalogue data and its parts. */
export const canvasKind: KindDescriptor = {
  ...KINDS.canvas,
  summarize: summarizeCanvas,
  index: canvasIndexRows,
  list: canvasList,
  record: canvasRecord,
  links: canvasLinks,
  page: canvasPage,
  names: (deps, caller, ids) =>
    listCanvases(deps.db, caller.visibility, caller.readableKinds, { ids }, null, ids.length),
}
