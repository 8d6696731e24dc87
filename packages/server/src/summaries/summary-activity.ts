import type { listActivity } from '../graph/activity/activity.queries.ts'
import { marker, quote, type SummaryBuilder } from './summary-builder.ts'
import {
  activityWords,
  day,
  type Mentions,
  type SummaryContext,
  source,
  verbWords,
} from './summary-context.ts'

/** An activity entry as listed. */
export type ActivityEntry = Awaited<ReturnType<typeof listActivity>>[number]

/** An activity entry's title as a source: what was done, and to what when the token may say. */
export function activityTitle(entry: ActivityEntry): string {
  const words = verbWords(entry.verb)
  return entry.subject_title === null ? words : `${words}: ${entry.subject_title}`
}

/**
 * Says who did what to what, citing the entry (not the subject: the entry is what it rests on,
 * and leads to the subject): `On 2026-11-21, “Ada” completed task “Ship” [3].`
 */
export function sayActivity(
  ctx: SummaryContext,
  b: SummaryBuilder,
  mentions: Mentions,
  entry: ActivityEntry,
  lead: string,
): void {
  const actor = mentions.name(entry.actor_visible ? entry.actor_id : null)
  const ref = source(ctx, entry.id, 'activity', activityTitle(entry))
  b.say`${lead} ${day(entry.created_at)}, ${actor ? quote(actor) : 'someone'} ${activityWords(entry)}${marker(ref)}.`
}
