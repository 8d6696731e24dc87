import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { activityLinks } from './activity.links.ts'
import { activityPage } from './activity.page.ts'
import { activityRecord } from './activity.record.ts'
import { summarizeActivity } from './activity.summary.ts'

/** The activity kind: its catalogue data and its parts. */
export const activityKind: KindDescriptor = {
  ...KINDS.activity,
  summarize: summarizeActivity,
  record: activityRecord,
  links: activityLinks,
  page: activityPage,
}
