import { isPersonField } from '../activity/changed-people.ts'
import type { FieldChange } from '../db/tables/activity.table.ts'

/**
 * The searchable text of an activity entry: its verb in words ("task completed") and the text
 * values its changes hold. Never the subject's title or any neighbour's text, nor people's ids: an
 * entry is not found by a word of someone its reader may not see.
 */
export function activitySearchText(
  verb: string,
  changes: Record<string, FieldChange> = {},
): string {
  const values = Object.entries(changes)
    .filter(([field]) => !isPersonField(field))
    .flatMap(([, { from, to }]) =>
      [from, to].filter((value): value is string => typeof value === 'string'),
    )
  return [verb.replace(/[._]/g, ' '), ...values].join(' ').slice(0, 10_000)
}
