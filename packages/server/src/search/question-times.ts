import * as chrono from 'chrono-node'
import { isStorableInstant } from '../lib/storable-dates.ts'
import { DAY } from './question-dates.ts'

/**
 * A time a question names: the words that say it (by index), and the window it means, `from`
 * inclusive and `to` exclusive; either end may be open ("before Friday", "since the 3rd").
 */
export interface NamedTime {
  at: number[]
  from: Date | null
  to: Date | null
}

// What a date phrase has: chrono also reads "now" and "at 5", which no question means as a day.
const SAYS_A_DATE =
  /\d|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|\b(mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(week|month|year|tomorrow|yesterday)\b/

// A window of days: `from` inclusive, `to` exclusive, either open.
type Window = { from: Date | null; to: Date | null }

// A count in words or digits: "the next two weeks", "last 3 days".
const COUNTS: Record<string, number> = {
  a: 1,
  one: 1,
  two: 2,
  couple: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
}
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, fortnight: 14, month: 30 }

/**
 * Reads the times of a question that the fixed phrases do not (docs/api.md, "Filters in the
 * query"), with chrono-node, relative to `now` in UTC: a day ("12/4", "Dec 7", "next Friday"), a
 * month ("in December"), a span counted from today ("the next two weeks", "the last 3 days"), a
 * range ("between Dec 7 and Dec 11"), and an end or a start ("before next Friday", "by 12/4",
 * "since Nov 1"). A month or a week is the whole of it; a day is the whole day. Returns null when
 * the question names no such time, or one the service cannot store.
 */
export function readTime(given: readonly string[], now: Date): NamedTime | null {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
  const span = countedSpan(given, today)
  if (span) return span
  const words = ordinalDays(given, today)
  const starts: number[] = []
  let offset = 0
  for (const word of words) {
    starts.push(offset)
    offset += word.length + 1
  }
  const text = words.join(' ')
  // A date without its year is the coming one where the question looks ahead ("due Jan 5"),
  // the nearest otherwise ("since Nov 1", "the November outage").
  const ahead = /\b(due|by|before|until|till|next|upcoming|coming)\b/.test(text)
  const found = chrono.en
    .parse(text, { instant: now, timezone: 'UTC' }, { forwardDate: ahead })
    .filter((result) => SAYS_A_DATE.test(result.text) && !/^may$/.test(result.text))
  if (found.length === 0) return null
  const indexes = (result: chrono.ParsedResult) =>
    starts.flatMap((start, i) =>
      start >= result.index && start < result.index + result.text.length ? [i] : [],
    )
  const windowOf = (result: chrono.ParsedResult): Window => {
    const day = nearer(dayOf(result.start.date()), result, today)
    // A range chrono read whole ("from today until Friday"): both ends' days in.
    if (result.end) return { from: day, to: new Date(dayOf(result.end.date()).getTime() + DAY) }
    if (result.start.isCertain('day') || result.start.isCertain('weekday'))
      return { from: day, to: new Date(day.getTime() + DAY) }
    if (/\bweek\b/.test(result.text)) {
      const monday = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY)
      return { from: monday, to: new Date(monday.getTime() + 7 * DAY) }
    }
    // "due in November" on 29 November is this November, which a look ahead moved a year on.
    const thisMonth =
      !result.start.isCertain('year') &&
      day.getUTCMonth() === today.getUTCMonth() &&
      day.getUTCFullYear() === today.getUTCFullYear() + 1
    const year = day.getUTCFullYear() - (thisMonth ? 1 : 0)
    const month = new Date(Date.UTC(year, day.getUTCMonth(), 1))
    return { from: month, to: new Date(Date.UTC(year, day.getUTCMonth() + 1, 1)) }
  }
  const first = found[0] as chrono.ParsedResult
  let at = indexes(first)
  // "since the 1st of November": the article belongs to the date, the word before it says how.
  if (words[(at[0] ?? 0) - 1] === 'the') at = [(at[0] ?? 0) - 1, ...at]
  const before = words[(at[0] ?? 0) - 1]
  let window: Window = windowOf(first)
  let used = at
  const second = found[1]
  if (before === 'between' && second && words[(at.at(-1) ?? 0) + 1] === 'and') {
    // "between Dec 7 and Dec 11": both days in.
    const last = windowOf(second)
    window = { from: window.from, to: last.to }
    used = [(at[0] ?? 0) - 1, ...at, (at.at(-1) ?? 0) + 1, ...indexes(second)]
  } else if (
    before &&
    /^(and|to|until|till|through)$/.test(before) &&
    /^(now|today)$/.test(words[(at[0] ?? 0) - 2] ?? '') &&
    /^(between|from)$/.test(words[(at[0] ?? 0) - 3] ?? '')
  ) {
    // "between now and 12/4", "from today until Friday": from today, that day included.
    window = { from: today, to: window.to }
    used = [(at[0] ?? 0) - 3, (at[0] ?? 0) - 2, (at[0] ?? 0) - 1, ...at]
  } else if (before && /^(before|by|until|till|through)$/.test(before)) {
    // "before Friday" ends where Friday begins; "by 12/4" includes the day.
    window = { from: null, to: before === 'before' ? window.from : window.to }
    used = [(at[0] ?? 0) - 1, ...at]
  } else if (before && /^(since|after|from)$/.test(before)) {
    window = {
      from: before === 'after' ? window.to : window.from,
      to: first.end ? window.to : null,
    }
    used = [(at[0] ?? 0) - 1, ...at]
  } else if (before === 'in' || before === 'on' || before === 'for') {
    used = [(at[0] ?? 0) - 1, ...at]
  }
  const named = { at: used, ...window }
  if ((named.from && !isStorableInstant(named.from)) || (named.to && !isStorableInstant(named.to)))
    return null
  return named
}

// The days of a month said as words, first to thirty-first.
const SPELLED_ORDINALS = [
  ...['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth'],
  ...['tenth', 'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth'],
  ...['seventeenth', 'eighteenth', 'nineteenth', 'twentieth'],
  ...['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth'].map(
    (day) => `twenty-${day}`,
  ),
  'thirtieth',
  'thirty-first',
]

/**
 * The words with each day said by its ordinal alone ("since the 1st", "by the 4th") written as
 * the date it means, in the same place, for chrono-node to read: this month's when the question
 * looks back and the day has come, the coming one's when it looks ahead and the day has gone.
 */
function ordinalDays(words: readonly string[], today: Date): readonly string[] {
  const ahead = words.some((word) => /^(due|by|before|until|till|next|upcoming|coming)$/.test(word))
  return words.map((word, i) => {
    // A spelled ordinal only where it cannot be anything else: "since the first", "by the fourth".
    const spelled = SPELLED_ORDINALS.indexOf(word) + 1
    if (spelled > 0 && !/^(since|by|before|until|till|after|on)$/.test(words[i - 2] ?? ''))
      return word
    const ordinal =
      spelled > 0 ? [word, String(spelled)] : /^([1-9]|[12]\d|3[01])(st|nd|rd|th)$/.exec(word)
    // "the 1st of November" and "the 4th December" say their month: chrono reads them whole.
    if (
      !ordinal ||
      words[i - 1] !== 'the' ||
      /^(of|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/.test(words[i + 1] ?? '')
    )
      return word
    const day = Number(ordinal[1])
    const shift =
      ahead && day < today.getUTCDate() ? 1 : !ahead && day > today.getUTCDate() ? -1 : 0
    const month = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + shift, 1))
    return `${month.getUTCMonth() + 1}/${day}/${month.getUTCFullYear()}`
  })
}

// "the next two weeks", "the last 3 days", "the past couple of weeks": from today, counted.
function countedSpan(words: readonly string[], today: Date): NamedTime | null {
  for (let i = 0; i < words.length; i++) {
    const direction = words[i]
    if (!/^(next|coming|last|past|previous)$/.test(direction ?? '')) continue
    let j = i + 1
    const count =
      COUNTS[words[j] ?? ''] ?? (/^\d{1,3}$/.test(words[j] ?? '') ? Number(words[j]) : null)
    if (count === null) continue
    j++
    if (words[j] === 'of') j++
    const unit = (words[j] ?? '').replace(/s$/, '')
    const days = UNIT_DAYS[unit]
    if (days === undefined) continue
    const length = count * days * DAY
    const at = Array.from({ length: j - i + 1 }, (_, k) => i + k)
    if (words[i - 1] === 'the') at.unshift(i - 1)
    const lead = words[(at[0] as number) - 1]
    if (lead === 'in' || lead === 'over' || lead === 'within') at.unshift((at[0] as number) - 1)
    const forward = /^(next|coming)$/.test(direction ?? '')
    return forward
      ? { at, from: today, to: new Date(today.getTime() + length + DAY) }
      : { at, from: new Date(today.getTime() - length), to: new Date(today.getTime() + DAY) }
  }
  return null
}

// The most a look ahead moves a date without its year from the nearest one: "due Jan 5" on
// 29 November is the coming January, but "due between Nov 1 and Nov 10" is this November's.
const AHEAD_AT_MOST = 183 * DAY

// A day chrono-node placed a year on because the question looks ahead, put back where it is
// nearer today when the year ahead is more than half a year away.
function nearer(day: Date, result: chrono.ParsedResult, today: Date): Date {
  if (result.start.isCertain('year') || day.getTime() - today.getTime() <= AHEAD_AT_MOST) return day
  const before = new Date(Date.UTC(day.getUTCFullYear() - 1, day.getUTCMonth(), day.getUTCDate()))
  return today.getTime() - before.getTime() < day.getTime() - today.getTime() ? before : day
}

function dayOf(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()))
}
