import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { summarizeActivity } from './activity.summary.ts'

/** The activity kind: its catalogue data and its parts. */
export const activityKind: KindDescriptor = {
  ...KINDS.activity,
  summarize: summarizeActivity,
}
