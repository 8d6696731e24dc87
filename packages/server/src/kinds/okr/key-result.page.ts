import { pagePath } from '../../web/neighbour-names.ts'
import type { AnchoredPage } from '../../web/page-view.ts'
import type { Of } from '../../web/resource.view.ts'

/** A key result is shown on its objective's page, at its own anchor. */
export const keyResultPage: AnchoredPage = {
  anchor: (record, ws) => `${pagePath(ws, (record as Of<'key_result'>).objective_id)}#${record.id}`,
}
