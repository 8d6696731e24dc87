import { pagePath } from '../../web/neighbour-names.ts'
import type { AnchoredPage } from '../../web/page-view.ts'
import type { Of } from '../../web/resource.view.ts'

/** An activity entry opens the page of its subject. */
export const activityPage: AnchoredPage = {
  anchor: (record, ws) => pagePath(ws, (record as Of<'activity'>).subject_id),
}
