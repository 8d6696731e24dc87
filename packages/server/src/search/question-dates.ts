import { isStorableDay } from '../lib/storable-dates.ts'
import { OPEN_STATUSES, WEEKDAYS } from './question-vocabulary.ts'
import type { SearchFilterValues } from './search-filter-values.ts'

/*
 * Days and times in a question (docs/api.md, "Filters in the query"): UTC days written
 * `YYYY-MM-DD`, "overdue", and where "since …" starts.
 */

/** A day in milliseconds. */
export const DAY = 86_400_000

/** A day `days` after `day` (before, when negative), both written `YYYY-MM-DD`. */
export function shiftDay(day: string, days: number): string {
  return isoDay(new Date(new Date(`${day}T00:00:00.000Z`).getTime() + days * DAY))
}

/** A real calendar day written `YYYY-MM-DD`, one the service stores (lib/storable-dates.ts). */
export function isValidDay(value: string): boolean {
  return isStorableDay(value)
}

/** The UTC day of a time, written `YYYY-MM-DD`. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** Overdue: due before today (`due_before` is inclusive) and not done. */
export function overdue(filters: SearchFilterValues, now: Date): void {
  filters.due_before = shiftDay(isoDay(now), -1)
  // A status given beside "late" keeps its open ones; one that has none is not late work.
  const open = filters.status?.filter((s) => OPEN_STATUSES.includes(s)) ?? []
  filters.status = open.length > 0 ? open : [...OPEN_STATUSES]
}

/**
 * When "since …" starts, and how many words say it: a weekday (its latest, today included),
 * yesterday, today, last week or month, or a day written `YYYY-MM-DD`.
 */
export function sinceWhen(
  words: string[],
  at: number,
  today: Date,
  monday: Date,
  month: Date,
  monthsFrom: (m: number) => Date,
): { from: Date; words: number } | null {
  const [w, next] = [words[at] ?? '', words[at + 1]]
  const weekday = WEEKDAYS.indexOf(w)
  if (weekday >= 0) {
    const back = (today.getUTCDay() - weekday + 7) % 7
    return { from: new Date(today.getTime() - back * DAY), words: 1 }
  }
  if (w === 'today') return { from: today, words: 1 }
  if (w === 'yesterday') return { from: new Date(today.getTime() - DAY), words: 1 }
  if (w === 'last' && next === 'week')
    return { from: new Date(monday.getTime() - 7 * DAY), words: 2 }
  if (w === 'last' && next === 'month') return { from: monthsFrom(-1), words: 2 }
  if (w === 'this' && next === 'week') return { from: monday, words: 2 }
  if (w === 'this' && next === 'month') return { from: month, words: 2 }
  if (isValidDay(w)) return { from: new Date(`${w}T00:00:00.000Z`), words: 1 }
  return null
}
