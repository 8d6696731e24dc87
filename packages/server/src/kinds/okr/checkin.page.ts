import { pagePath } from '../../web/neighbour-names.ts'
import type { AnchoredPage } from '../../web/page-view.ts'
import type { Of } from '../../web/resource.view.ts'

/** A check-in is shown on its objective's page, at its own anchor. */
export const checkinPage: AnchoredPage = {
  anchor: (record, ws) => `${pagePath(ws, (record as Of<'checkin'>).objective_id)}#${record.id}`,
}
