import type { listActivity } from '../activity/activity.queries.ts'
import {
  marker,
  named,
  quote,
  type SourceRef,
  type SummaryBuilder,
  type Value,
} from './summary-builder.ts'
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
 * Says who did what to what: `On 2026-11-21, “Ada” completed task “Ship” [3].` It cites the
 * subject, so entries about one resource share a source and each citation opens a resource's page;
 * the entry itself only when the token may not read the subject's type (its title is then unsaid).
 * An entry about the summary's own subject cites nothing: the subject's URL heads the summary.
 * Returns what it cited.
 */
export function sayActivity(
  ctx: SummaryContext,
  b: SummaryBuilder,
  mentions: Mentions,
  entry: ActivityEntry,
  lead: string,
  subjectId: string,
): SourceRef | undefined {
  const actor = mentions.name(entry.actor_visible ? entry.actor_id : null)
  const ref =
    entry.subject_title === null
      ? source(ctx, entry.id, 'activity', activityTitle(entry), entry.created_at)
      : entry.subject_id === subjectId
        ? undefined
        : source(
            ctx,
            entry.subject_id,
            entry.subject_type,
            subjectName(entry),
            entry.subject_updated_at,
          )
  const on = entry.on_id === subjectId ? undefined : mentions.ref(entry.on_id)
  b.say`${lead} ${day(entry.created_at)}, ${actor ? quote(actor) : 'someone'} ${activityWords(entry)}${ref ? marker(ref) : ''}${on ? [' on ', named(on)] : ''}${checkinWords(entry)}.`
  return ref
}

/** The neighbours `sayActivity` may name: load them into the Mentions it is given. */
export function activityNeighbours(entry: ActivityEntry): (string | null)[] {
  return [entry.actor_visible ? entry.actor_id : null, entry.on_id]
}

/**
 * What a check-in logged: `: “Signups” at 40 users (confidence 60%)`; nothing for other entries,
 * or when the token may not read objectives (their key results go with them).
 */
export function checkinWords(entry: ActivityEntry): Value[] {
  const checkin = entry.checkin
  if (!checkin || entry.subject_title === null) return []
  const unit = checkin.unit.trim() ? ` ${checkin.unit}` : ''
  const confidence =
    checkin.confidence === null ? '' : ` (confidence ${Math.round(checkin.confidence * 100)}%)`
  return [': ', quote(checkin.key_result, 120), ` at ${checkin.value}${unit}${confidence}`]
}

// A comment is named by its opening words, as every other source names it.
function subjectName(entry: ActivityEntry): string {
  const title = entry.subject_title ?? ''
  return entry.subject_type === 'comment' ? title.slice(0, 80) : title
}
