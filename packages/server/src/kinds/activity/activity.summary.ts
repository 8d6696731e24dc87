import { listActivity } from '../../activity/activity.queries.ts'
import {
  activityNeighbours,
  activityTitle,
  checkinWords,
} from '../../summaries/summary-activity.ts'
import { named, quoted, SummaryBuilder } from '../../summaries/summary-builder.ts'
import {
  day,
  Mentions,
  type Summarized,
  type SummaryContext,
  verbWords,
} from '../../summaries/summary-context.ts'

/** An activity entry: who did what to which resource, and what changed. */
export async function summarizeActivity(
  ctx: SummaryContext,
  id: string,
): Promise<Summarized | null> {
  const filter = { ids: [id] }
  const [entry] = await listActivity(ctx.db, ctx.visibility, ctx.readableKinds, filter, null, 1)
  if (!entry) return null
  const mentions = await Mentions.load(ctx, [entry.subject_id, ...activityNeighbours(entry)])
  const actor = mentions.ref(entry.actor_visible ? entry.actor_id : null)
  // The subject is named only when the token may read its type (its title is null otherwise).
  const subject = entry.subject_title === null ? undefined : mentions.ref(entry.subject_id)
  const b = new SummaryBuilder()
  const on = mentions.ref(entry.on_id)
  b.say`On ${day(entry.created_at)}, ${actor ? named(actor) : 'someone'} ${verbWords(entry.verb)}${subject ? [' ', named(subject)] : ''}${on ? [' on ', named(on)] : ''}${checkinWords(entry)}.`
  for (const [field, change] of Object.entries(entry.changes)) {
    const from = quoted(String(change.from ?? 'nothing'), ' from ', 120)
    b.say`Its ${field.replace(/_/g, ' ')} changed${from}${quoted(String(change.to ?? 'nothing'), ' to ', 120)}.`
  }
  b.fact('verb', entry.verb).fact('changes', Object.keys(entry.changes).length)
  b.link('subject', subject).link('actor', actor).link('on', on)
  return { type: 'activity', title: activityTitle(entry), builder: b }
}
