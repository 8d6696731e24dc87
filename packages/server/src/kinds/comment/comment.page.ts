import { pagePath } from '../../web/neighbour-names.ts'
import type { AnchoredPage } from '../../web/page-view.ts'
import type { Of } from '../../web/resource.view.ts'

/** A comment is shown on its resource's page, at its own anchor. */
export const commentPage: AnchoredPage = {
  anchor: (record, ws) => `${pagePath(ws, (record as Of<'comment'>).resource_id)}#${record.id}`,
}
