import type { HealthVerdict } from '../graph/okrs/okr-health.ts'
import { DAY, isoDay, overdue, sinceWhen } from './question-dates.ts'
import { type NamedTime, readTime } from './question-times.ts'
import {
  BLOCKING,
  CHANGE_VERBS,
  HEALTH_WORDS,
  LISTING_AFTER,
  OPEN_STATUSES,
  ownValue,
  STOP_WORDS,
  statusWord,
  TASK_NOUNS,
  type TaskStatus,
  TYPE_PLURALS,
} from './question-vocabulary.ts'
import type { SearchKind } from './search.schemas.ts'
import type { SearchFilterValues } from './search-filter-values.ts'

/*
 * The filters a question says in words (docs/api.md, "Filters in the query"): statuses, times,
 * "my", an objective's health, the kinds it lists, and the words that may name a person or a
 * team (resolved later, against what the caller may open).
 */

// Words that end a person's name in "assigned to …" and "for …": anything that is no name.
const NOT_NAME = /^(today|tomorrow|yesterday|this|next|last|week|month|in|on|at|due|and|or|with)$/

/**
 * The words that may name an assignee, and the words around them that only frame the question
 * (`assigned`, `to`, `for`, `working`, `doing`), by their indexes; `working` when the question
 * asks what someone is doing (their tasks in progress).
 */
export function readPersonWords(
  words: string[],
): { words: string[]; frame: number[]; working: boolean } | null {
  const nameAt = (from: number) => {
    const out: number[] = []
    for (let i = from; i < words.length && out.length < 2; i++) {
      const w = words[i] as string
      if (STOP_WORDS.has(w) || NOT_NAME.test(w) || statusWord(w) || TASK_NOUNS.has(w)) break
      out.push(i)
    }
    return out
  }
  const named = (at: number[], frame: number[], working = false) =>
    at.length > 0
      ? { words: at.map((i) => (words[i] as string).replace(/['’]s$/, '')), frame, working }
      : null
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string
    if (/^\p{L}+['’]s$/u.test(w)) {
      // "Kemi Adeyemi's tasks": the possessive, and the word before it when it may be a name.
      const before = words[i - 1]
      const two = before && !STOP_WORDS.has(before) && !NOT_NAME.test(before) ? [i - 1, i] : [i]
      return named(two, [])
    }
    if (w === 'assigned' && words[i + 1] === 'to' && words[i + 2] !== 'me')
      return named(nameAt(i + 2), [i, i + 1])
    if (
      w === 'for' &&
      i > 0 &&
      (TASK_NOUNS.has(words[i - 1] as string) || statusWord(words[i - 1] as string))
    )
      return named(nameAt(i + 1), [i])
    if (w === 'is' && i > 0 && /^(what|whats)$/.test(words[i - 1] as string)) {
      const at = nameAt(i + 1)
      const after = words[(at.at(-1) ?? i) + 1]
      if (at.length > 0 && (after === 'working' || after === 'doing'))
        return named(at, [(at.at(-1) as number) + 1], true)
    }
  }
  return null
}

/**
 * The words before "team" (or "team's") that may name one, when the question asks for what is
 * the team's, and the kinds it asks for: a kind is listed ("people on the platform team", "the
 * web team's projects"), tasks are named ("tasks of the web team"), or it asks who ("who is on
 * the support team"). Alone, "platform team" is words to find: the team itself.
 */
export function readTeamWords(
  words: string[],
  types: SearchKind[] | null,
): { words: string[]; kinds: SearchKind[] } | null {
  const at = words.findIndex((w) => w === 'team' || /^team['’]s$/.test(w))
  if (at <= 0) return null
  const kinds = new Set<SearchKind>(types ?? [])
  for (const w of words) {
    const kind = TYPE_PLURALS.get(w)
    if (kind) kinds.add(kind)
    if (TASK_NOUNS.has(w)) kinds.add('task')
  }
  if (words.slice(0, 2).includes('who')) kinds.add('person')
  if (kinds.size === 0 && !/['’]s$/.test(words[at] as string)) return null
  const name: string[] = []
  for (let i = at - 1; i >= 0 && name.length < 3; i--) {
    const w = words[i] as string
    if (STOP_WORDS.has(w) || TYPE_PLURALS.has(w) || TASK_NOUNS.has(w) || statusWord(w)) break
    name.unshift(w)
  }
  return name.length > 0 ? { words: name, kinds: [...kinds] } : null
}

/**
 * Finds the words that name a filter when the question says so, sets those filters, and returns
 * the indexes of the words it used. A status word is a filter next to a word for tasks ("blocked
 * tasks"), with a time ("done last week"), after a question ("what is blocking …"), or alone.
 */
export function readNaturalFilters(
  words: string[],
  filters: SearchFilterValues,
  now: Date,
): { used: Set<number>; kinds: SearchKind[]; placed: boolean } {
  const used = new Set<number>()
  const statuses: { at: number[]; status: TaskStatus; blocking: boolean }[] = []
  const healths: { at: number[]; verdicts: HealthVerdict[]; weak: boolean }[] = []
  // A time is a window, or open at one end: "since Monday" to now, "before Friday" from ever.
  let time: NamedTime | null = null
  let mine: number[] | null = null
  let late: number | null = null
  const today = new Date(`${isoDay(now)}T00:00:00.000Z`)
  const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * DAY)
  const month = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1))
  const monthsFrom = (m: number) =>
    new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + m, 1))
  for (let i = 0; i < words.length; i++) {
    const [w, next, third] = [words[i], words[i + 1], words[i + 2]]
    if (w === 'since' && next !== undefined) {
      const since = sinceWhen(words, i + 1, today, monday, month, monthsFrom)
      if (since) {
        time = {
          at: Array.from({ length: since.words + 1 }, (_, k) => i + k),
          from: since.from,
          to: null,
        }
        i += since.words
      }
    } else if ((w === 'off' || w === 'on') && next === 'track') {
      healths.push({
        at: [i, i + 1],
        verdicts: [w === 'off' ? 'off_track' : 'on_track'],
        weak: false,
      })
      i++
    } else if (w === 'at' && next === 'risk') {
      healths.push({ at: [i, i + 1], verdicts: ['at_risk'], weak: false })
      i++
    } else if (w !== undefined && ownValue(HEALTH_WORDS, w)) {
      healths.push({ at: [i], ...(ownValue(HEALTH_WORDS, w) as (typeof HEALTH_WORDS)[string]) })
    } else if (w === 'in' && next === 'progress') {
      statuses.push({ at: [i, i + 1], status: 'in_progress', blocking: false })
      i++
    } else if (w === 'to' && next === 'do') {
      statuses.push({ at: [i, i + 1], status: 'todo', blocking: false })
      i++
    } else if (w === 'assigned' && next === 'to' && third === 'me') {
      mine = [i, i + 1, i + 2]
      i += 2
    } else if ((w === 'last' || w === 'past' || w === 'this') && next === 'week') {
      const from = w === 'this' ? monday : new Date(monday.getTime() - 7 * DAY)
      time = { at: [i, i + 1], from, to: new Date(from.getTime() + 7 * DAY) }
      i++
    } else if ((w === 'last' || w === 'past' || w === 'this') && next === 'month') {
      const from = w === 'this' ? month : monthsFrom(-1)
      time = { at: [i, i + 1], from, to: w === 'this' ? monthsFrom(1) : month }
      i++
    } else if (w === 'next' && next === 'week') {
      const from = new Date(monday.getTime() + 7 * DAY)
      time = { at: [i, i + 1], from, to: new Date(from.getTime() + 7 * DAY) }
      i++
    } else if (w === 'today' || w === 'yesterday' || w === 'tomorrow') {
      const shift = w === 'today' ? 0 : w === 'yesterday' ? -1 : 1
      const from = new Date(today.getTime() + shift * DAY)
      time = { at: [i], from, to: new Date(from.getTime() + DAY) }
    } else if (w === 'overdue' || w === 'late') {
      late = i
    } else if (w === 'my' || w === 'mine') {
      mine = mine ?? [i]
    } else if (w !== undefined && statusWord(w)) {
      statuses.push({
        at: [i],
        status: statusWord(w) as TaskStatus,
        blocking: BLOCKING.has(w),
      })
    }
  }
  // Any other time, read by chrono-node: "by 12/4", "in December", "the next two weeks".
  time ??= readTime(words, now)
  const taskNouns = words.flatMap((w, i) => (TASK_NOUNS.has(w) ? [i] : []))
  const typeWords = words.flatMap((w, i) => {
    const kind = TYPE_PLURALS.get(w)
    return kind ? [{ at: i, kind }] : []
  })
  const asked = words.slice(0, 3).some((w) => /^(what|what's|whats|who|which)$/.test(w))
  const others = words.filter(
    (w, i) =>
      !STOP_WORDS.has(w) &&
      !statuses.some((s) => s.at.includes(i)) &&
      !healths.some((h) => h.at.includes(i)) &&
      !time?.at.includes(i) &&
      !TASK_NOUNS.has(w) &&
      !TYPE_PLURALS.has(w),
  )
  // A health is of objectives: a filter where the question names them, or plainly asks for it.
  const objectivesNamed = typeWords.some((t) => t.kind === 'okr')
  const health = healths.find((h) => objectivesNamed || (!h.weak && (asked || others.length === 0)))
  if (health) {
    filters.health = health.verdicts
    for (const at of health.at) used.add(at)
  }
  const status = statuses.find(
    (s) =>
      taskNouns.length > 0 ||
      time !== null ||
      late !== null ||
      (s.blocking && (asked || /^(for|in|on|of)$/.test(words[(s.at.at(-1) ?? 0) + 1] ?? ''))) ||
      others.length === 0,
  )
  if (late !== null) {
    overdue(filters, now)
    used.add(late)
  }
  if (status) {
    const asked = status.status
    filters.status = filters.status ? filters.status.filter((s) => s === asked) : [asked]
    for (const at of status.at) used.add(at)
  }
  const anyFilter = status !== undefined || late !== null
  if (mine && (taskNouns.length > 0 || anyFilter || mine.length === 3)) {
    filters.assignee = filters.assignee ?? 'me'
    for (const at of mine) used.add(at)
  }
  const verb = (time?.at[0] ?? 0) - 1
  const changed = CHANGE_VERBS.test(words[verb] ?? '')
  // "due …" just before the time, a word or two away ("due on mobile in December"), or a
  // deadline ("needed by 12/4"): the time is of the due date.
  const dueAt = time
    ? [verb, verb - 1, verb - 2, verb - 3].find((at) => at >= 0 && words[at] === 'due')
    : undefined
  const deadline = time !== null && words[time.at[0] ?? 0] === 'by'
  const filtered = asked || anyFilter || health !== undefined || time !== null
  const kinds = listedKinds(words, typeWords, filtered, others)
  const listing = typeWords.filter((t) => kinds.includes(t.kind))
  // The rest of "blocked tasks in checkout" may name a project; of "comments about pricing", not:
  // there only "canvases in …" or "… from …" says where.
  const listed = new Set(listing.map(({ at }) => at))
  const placedAfter = listing.some(({ at }) => /^(in|from)$/.test(words[at + 1] ?? ''))
  const placed = () => placedAfter || [...used].some((at) => !listed.has(at))
  for (const at of listed) used.add(at)
  // "due this week", "due tomorrow": the time is of the due date (inclusive days), and what is
  // due is what is still to do unless a status says otherwise.
  if (time && (dueAt !== undefined || deadline)) {
    if (time.from) filters.due_after = filters.due_after ?? isoDay(time.from)
    if (time.to)
      filters.due_before = filters.due_before ?? isoDay(new Date(time.to.getTime() - DAY))
    filters.status = filters.status ?? [...OPEN_STATUSES]
    for (const at of [...(dueAt === undefined ? [] : [dueAt]), ...time.at]) used.add(at)
    for (const at of taskNouns) used.add(at)
    return { used, kinds, placed: true }
  }
  // "since Monday" always filters; another time when something else does, or it is all there is.
  const timed = time && (time.to === null || anyFilter || used.size > 0 || others.length === 0)
  if (time && (timed || changed)) {
    // "done last week": the time of completing; else of the last change.
    const done = filters.status?.length === 1 && filters.status[0] === 'done' && !changed
    const [after, before] = done
      ? (['completed_after', 'completed_before'] as const)
      : (['updated_after', 'updated_before'] as const)
    if (time.from) filters[after] = filters[after] ?? time.from.toISOString()
    if (time.to) filters[before] = filters[before] ?? time.to.toISOString()
    for (const at of time.at) used.add(at)
    // "what changed in checkout since Monday": the verb frames the time wherever it stands.
    for (const [at, word] of words.entries()) if (CHANGE_VERBS.test(word)) used.add(at)
  }
  if (used.size > 0) for (const at of taskNouns) used.add(at)
  return { used, kinds, placed: placed() }
}

/**
 * The kinds a question names to list ("which OKRs are off track", "canvases in checkout", "my
 * comments"): a kind's plural says what to list when the question asks, filters, says where
 * ("… in", "… about"), or has nothing else to find. Elsewhere it is a word to find ("inline
 * comments" may be a canvas's title).
 */
function listedKinds(
  words: string[],
  typeWords: { at: number; kind: SearchKind }[],
  filtered: boolean,
  others: string[],
): SearchKind[] {
  const listing = typeWords.filter(
    ({ at }) =>
      filtered ||
      others.length === 0 ||
      LISTING_AFTER.test(words[at + 1] ?? '') ||
      /^(my|all|every)$/.test(words[at - 1] ?? ''),
  )
  return [...new Set(listing.map((t) => t.kind))]
}
