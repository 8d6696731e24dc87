import type { HealthVerdict } from '../graph/okrs/okr-health.ts'
import { DAY, isoDay, overdue, sinceWhen } from './question-dates.ts'
import { type NamedTime, readTime } from './question-times.ts'
import {
  BLOCKING,
  CHANGE_VERBS,
  HEALTH_WORDS,
  LISTING_AFTER,
  MY_TEAM,
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
import { baseVerb, readVerb } from './verb-lemma.ts'

/*
 * The filters a question says in words (docs/api.md, "Filters in the query"): statuses, times,
 * "my", an objective's health, the kinds it lists, and the words that may name a person or a
 * team (resolved later, against what the caller may open).
 */

/** What a question asks of a person: their work, in what state, or what they wrote. */
export type PersonAsk = {
  words: string[]
  /** Words around the name that only frame the question, by index. */
  frame: number[]
  /**
   * `working`: what they are doing now ("working on", "doing": in progress); `open`: all their
   * work still to do ("busy with", "up to", "got on their plate"); `done`: what they finished;
   * `said`: their comments; null: their tasks, in any state.
   */
  state: 'working' | 'open' | 'blocked' | 'done' | 'said' | 'made' | null
}

// What a verb about a person asks for, by its base form: every form of it is read through
// compromise ("finished", "finishes", "finishing"; verb-lemma.ts). `done`: what they finished;
// `said`: their comments; `made`: what they created.
const PERSON_VERBS: Record<string, 'done' | 'said' | 'made'> = {
  finish: 'done',
  close: 'done',
  complete: 'done',
  ship: 'done',
  wrap: 'done',
  deliver: 'done',
  say: 'said',
  comment: 'said',
  write: 'said',
  reply: 'said',
  mention: 'said',
  post: 'said',
  ask: 'said',
  raise: 'said',
  suggest: 'said',
  propose: 'said',
  create: 'made',
  make: 'made',
  open: 'made',
}
// Verbs that frame what a person is doing ("working on", "doing", "focused on", "got on her
// plate", "have"), by their base form.
const FRAME_VERBS = new Set(['work', 'do', 'focus', 'get', 'have'])
// Other words that end a person's name in "assigned to …" and "for …".
const NOT_NAME_WORDS = new Set(
  'today tomorrow yesterday this next last week month in on at due and or with busy up'.split(' '),
)
// Words before a name whose verb ends in "-s" that make it a question of what they do: "anything
// Ada writes", "what Priya finishes" (and words for tasks: "tasks Sam closes").
const ASKS_OF = /^(what|whatever|which|that|anything|everything|something)$/
// Words before an "-ing" form that say it is under way: "Sam is shipping", "I'm writing".
const UNDER_WAY = /^(is|was|am|i'm|i’m)$/

// Whether a word ends a person's name: a word of time or place, or a verb about people.
function notName(word: string): boolean {
  if (NOT_NAME_WORDS.has(word)) return true
  const base = baseVerb(word)
  return FRAME_VERBS.has(base) || ownValue(PERSON_VERBS, base) !== undefined
}

// The word "due" before a time at `at`, however far ("due on the mobile app in the next two
// weeks"), unless a word of finishing or changing comes between: then the time is of that.
function dueBefore(words: readonly string[], at: number): number | undefined {
  for (let i = at - 1; i >= 0; i--) {
    const word = words[i] as string
    if (word === 'due') return i
    if (CHANGE_VERBS.test(word) || isDoneWord(word)) return undefined
  }
  return undefined
}

/**
 * The words that may name a person a question asks about, what it asks of them, and the words
 * around the name that only frame it: "Kemi's tasks", "assigned to Jonas", "tasks for Jonas",
 * "what is Ben working on" (in progress), "what is Marco busy with" or "what has Gita got on her
 * plate" (still to do), "what did Priya close" (done), "what did Sam say about …" or "anything
 * Sam said about …" (their comments), "tasks Ada created".
 */
export function readPersonWords(words: string[]): PersonAsk | null {
  const nameAt = (from: number) => {
    const out: number[] = []
    for (let i = from; i < words.length && out.length < 2; i++) {
      const w = words[i] as string
      if (STOP_WORDS.has(w) || notName(w) || statusWord(w) || TASK_NOUNS.has(w)) break
      out.push(i)
    }
    return out
  }
  const named = (at: number[], frame: number[], state: PersonAsk['state'] = null) =>
    at.length > 0
      ? { words: at.map((i) => (words[i] as string).replace(/['’]s$/, '')), frame, state }
      : null
  const asking = (i: number) => /^(what|whats|what's)$/.test(words[i] ?? '')
  // What a verb about people asks for, in any form ("close", "finished"); "wrap" takes its "up".
  const personVerb = (word: string | undefined) =>
    word === undefined ? undefined : ownValue(PERSON_VERBS, baseVerb(word))
  const wrapUp = (at: number) =>
    baseVerb(words[at] ?? '') === 'wrap' && words[at + 1] === 'up' ? [at + 1] : []
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string
    if (/^\p{L}+['’]s$/u.test(w) && !CONTRACTIONS.test(w)) {
      // "Kemi Adeyemi's tasks": the possessive, and the word before it when it may be a name.
      const before = words[i - 1]
      const two = before && !STOP_WORDS.has(before) && !notName(before) ? [i - 1, i] : [i]
      const plate = words[i + 1] === 'plate' ? [i + 1] : []
      return named(two, plate, plate.length > 0 ? 'open' : null)
    }
    if (w === 'assigned' && words[i + 1] === 'to' && words[i + 2] !== 'me')
      return named(nameAt(i + 2), [i, i + 1])
    if (
      w === 'for' &&
      i > 0 &&
      (TASK_NOUNS.has(words[i - 1] as string) || statusWord(words[i - 1] as string))
    )
      return named(nameAt(i + 1), [i])
    if (w === 'is' && asking(i - 1)) {
      // "what is Ben working on", "… doing", "… busy with", "… up to", "… focused on".
      const at = nameAt(i + 1)
      const next = (at.at(-1) ?? i) + 1
      const after = words[next]
      if (at.length > 0 && (after === 'working' || after === 'doing'))
        return named(at, [next, ...(words[next + 1] === 'on' ? [next + 1] : [])], 'working')
      if (at.length > 0 && /^(stuck|blocked)$/.test(after ?? ''))
        return named(at, [next, ...(words[next + 1] === 'on' ? [next + 1] : [])], 'blocked')
      if (at.length > 0 && /^(busy|up|focused)$/.test(after ?? ''))
        return named(
          at,
          [next, ...(/^(with|to|on)$/.test(words[next + 1] ?? '') ? [next + 1] : [])],
          'open',
        )
    }
    if ((w === 'has' || w === 'does') && asking(i - 1)) {
      // "what has Gita got (on her plate)", "what does Hugo have".
      const at = nameAt(i + 1)
      const next = (at.at(-1) ?? i) + 1
      if (at.length > 0 && /^(got|have)$/.test(words[next] ?? '')) {
        const plate = words.slice(next + 1).indexOf('plate')
        return named(at, [next, ...(plate >= 0 ? [next + 1 + plate] : [])], 'open')
      }
    }
    if (w === 'did' && words[i + 1] === 'i') {
      // "which tasks did I create", "what did I say about …", "what did I finish": the asker.
      const state = personVerb(words[i + 2])
      if (state) return { words: ['me'], frame: [i, i + 1, i + 2, ...wrapUp(i + 2)], state }
    }
    if (w === 'did' && asking(i - 1)) {
      // "what did Priya close", "what did Sam say about the rollout".
      const at = nameAt(i + 1)
      const next = (at.at(-1) ?? i) + 1
      const state = personVerb(words[next])
      if (at.length > 0 && state) return named(at, [next, ...wrapUp(next)], state)
    }
  }
  // "anything Sam said about …", "tasks Ada created" (a name just before a past form), "anything
  // Ada writes about …" (a present form after "anything", "what" or a word for tasks), "tasks Sam
  // is shipping" or "what is Sam shipping" (an "-ing" form with "is": under way, when it is of
  // finishing).
  for (let i = 1; i < words.length; i++) {
    const w = words[i] as string
    const verb = readVerb(w)
    const asks = verb.form === 'base' ? undefined : ownValue(PERSON_VERBS, verb.base)
    if (!asks) continue
    // A present form may be a plural ("customer comments"); an "-ing" form a noun ("shipping").
    if (verb.form === 'present' && TYPE_PLURALS.has(w)) continue
    const gerund = verb.form === 'gerund'
    const state = gerund && asks === 'done' ? 'working' : asks
    const aux = gerund && UNDER_WAY.test(words[i - 1] ?? '') ? 1 : 0
    const frame = [i, ...wrapUp(i)]
    // The asker: "comments I wrote", "tasks I finished", "what I'm writing", "what am I shipping".
    const me =
      aux > 0 && /^i['’]m$/.test(words[i - 1] as string)
        ? [i - 1]
        : aux > 0 && words[i - 2] === 'i'
          ? [i - 2, i - 1]
          : words[i - 1] === 'i' && (!gerund || /^(am|was)$/.test(words[i - 2] ?? ''))
            ? [i - 1]
            : []
    if (me.length > 0) return { words: ['me'], frame: [...me, ...frame], state }
    const at: number[] = []
    for (let k = i - 1 - aux; k >= 0 && at.length < 2; k--) {
      const w = words[k] as string
      if (STOP_WORDS.has(w) || notName(w) || statusWord(w) || TASK_NOUNS.has(w)) break
      at.unshift(k)
    }
    if (at.length === 0) continue
    const first = at[0] as number
    if (
      verb.form === 'present' &&
      !ASKS_OF.test(words[first - 1] ?? '') &&
      !TASK_NOUNS.has(words[first - 1] ?? '')
    )
      continue
    if (gerund && aux === 0 && !UNDER_WAY.test(words[first - 1] ?? '')) continue
    return named(at, [...(aux ? [i - 1] : []), ...frame], state)
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
  if (at <= 0) return whoIsIn(words)
  const kinds = new Set<SearchKind>(types ?? [])
  for (const w of words) {
    const kind = TYPE_PLURALS.get(w)
    if (kind) kinds.add(kind)
    if (TASK_NOUNS.has(w)) kinds.add('task')
  }
  if (words.slice(0, 2).includes('who')) kinds.add('person')
  // "what is the design team stuck on": a status is of tasks.
  if (words.some((w) => statusWord(w))) kinds.add('task')
  if (kinds.size === 0 && !/['’]s$/.test(words[at] as string)) return null
  const name: string[] = []
  for (let i = at - 1; i >= 0 && name.length < 3; i--) {
    const w = words[i] as string
    if (STOP_WORDS.has(w) || TYPE_PLURALS.has(w) || TASK_NOUNS.has(w) || statusWord(w)) break
    name.unshift(w)
  }
  // "my team's tasks", "our team": the team the asker is on, when it is one.
  if (name.length === 0 && /^(my|our)$/.test(words[at - 1] ?? ''))
    return { words: [MY_TEAM], kinds: [...kinds] }
  return name.length > 0 ? { words: name, kinds: [...kinds] } : null
}

// Words of making something: with a time, the time is of creating it.
const CREATION = /^(created|added|new|opened|filed|raised|logged)$/

// "who's in leadership", "who is on design": the people of a team named without the word
// "team", when those words name one the caller may see (else they stay words to find).
function whoIsIn(words: string[]): { words: string[]; kinds: SearchKind[] } | null {
  const from = /^(who's|who’s|whos)$/.test(words[0] ?? '')
    ? 1
    : words[0] === 'who' && words[1] === 'is'
      ? 2
      : -1
  if (from < 0 || !/^(in|on)$/.test(words[from] ?? '')) return null
  const name = words.slice(from + 1).filter((w) => !STOP_WORDS.has(w))
  return name.length > 0 && name.length <= 3 ? { words: name, kinds: ['person'] } : null
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
  person: { name: number[]; frame: number[] } = { name: [], frame: [] },
): { used: Set<number>; kinds: SearchKind[]; placed: boolean } {
  // A person's frame ("what did … finish") is a filter said in words; their name is not to find.
  const used = new Set<number>(person.frame)
  // `not`: the status denied ("not done", "still hasn't been finished"): what is still open.
  const statuses: { at: number[]; status: TaskStatus; blocking: boolean; not?: boolean }[] = []
  const healths: { at: number[]; verdicts: HealthVerdict[]; weak: boolean }[] = []
  // A time is a window, or open at one end: "since Monday" to now, "before Friday" from ever.
  let time: NamedTime | null = null
  let mine: number[] | null = null
  let late: number | null = null
  let plate = false
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
    } else if (w === 'my' && next === 'plate') {
      // "what's on my plate": what the asker still has to do.
      mine = [i, i + 1]
      plate = true
      i++
    } else if ((w === 'my' || w === 'mine') && !/^team(['’]s)?$/.test(next ?? '')) {
      // "my team's tasks" are the team's, not the asker's.
      mine = mine ?? [i]
    } else if (w === 'for' && next === 'me') {
      // "which tasks are late for me": as "my", when something else asks for tasks.
      mine = mine ?? [i, i + 1]
      i++
    } else if (w !== undefined && (UNDONE.has(w) || (isDoneWord(w) && deniedAt(words, i) >= 0))) {
      // "unfinished", "not done", "hasn't been closed": the work still open.
      const from = UNDONE.has(w) ? i : deniedAt(words, i)
      const at = Array.from({ length: i - from + 1 }, (_, k) => from + k)
      statuses.push({ at, status: 'done', blocking: false, not: true })
    } else if (
      w !== undefined &&
      !statusWord(w) &&
      isDoneWord(w) &&
      /^(was|were|got|get|been|be|is|are)$/.test(words[i - 1] ?? '')
    ) {
      // "what was finish", "what got closed": a word of finishing in any form after its verb.
      statuses.push({ at: [i], status: 'done', blocking: false })
    } else if (w !== undefined && statusWord(w)) {
      statuses.push({
        at: [i],
        status: statusWord(w) as TaskStatus,
        blocking: BLOCKING.has(w),
      })
    }
  }
  // Late in other words: "slipped past their due date", "past due", "missed its deadline".
  const lateRun = late === null ? readLate(words) : []
  if (lateRun.length > 0) late = lateRun[0] as number
  for (const at of lateRun) used.add(at)
  // What is missing: "nobody assigned", "unassigned", "without a due date".
  const missing = readMissing(words)
  if (missing.unassigned) filters.assignee ??= 'none'
  if (missing.undated) filters.due ??= 'none'
  for (const at of missing.at) used.add(at)
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
      !person.name.includes(i) &&
      !person.frame.includes(i) &&
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
      (s.blocking && asked) ||
      // "anything blocked?", "anything the design team is blocked on": being blocked is asked.
      (s.status === 'blocked' && words.some((w) => /^(any|anything)$/.test(w))) ||
      // "whats blocked there", "what is stuck", "which are done": the status is what is asked.
      /^(what's|whats)$/.test(words[(s.at[0] ?? 0) - 1] ?? '') ||
      (asked && /^(is|are)$/.test(words[(s.at[0] ?? 0) - 1] ?? '')) ||
      ((s.blocking || asked) && /^(for|in|on|of)$/.test(words[(s.at.at(-1) ?? 0) + 1] ?? '')) ||
      others.length === 0,
  )
  if (late !== null) {
    overdue(filters, now)
    used.add(late)
  }
  if (status) {
    const asked = status.not ? OPEN_STATUSES : [status.status]
    // Two statuses that share none ("what is he working on, and which are blocked") ask for both.
    const both = filters.status?.filter((s) => asked.includes(s)) ?? []
    filters.status =
      filters.status === undefined
        ? [...asked]
        : both.length > 0
          ? both
          : [...new Set([...filters.status, ...asked])]
    for (const at of status.at) used.add(at)
  }
  const anyFilter =
    status !== undefined || late !== null || person.frame.length > 0 || missing.at.length > 0
  if (mine && (taskNouns.length > 0 || anyFilter || mine.length === 3 || plate)) {
    filters.assignee = filters.assignee ?? 'me'
    if (plate) filters.status ??= [...OPEN_STATUSES]
    for (const at of mine) used.add(at)
  } else {
    // "my projects", "which projects am I on": the asker's projects; "my OKRs", "my canvases":
    // what they own.
    const onIt = runAt(words, ON_IT)
    const owned = mine ? typeWords.filter((t) => t.kind === 'okr' || t.kind === 'canvas') : []
    const projects = typeWords.some((t) => t.kind === 'project')
    if (projects && (mine || onIt.length > 0)) {
      filters.member ??= 'me'
      for (const at of [...(mine ?? []), ...onIt]) used.add(at)
    } else if (mine && owned.length > 0) {
      filters.owner ??= 'me'
      for (const at of mine) used.add(at)
    }
  }
  const verb = (time?.at[0] ?? 0) - 1
  const changed = CHANGE_VERBS.test(words[verb] ?? '')
  // "due …" before the time, however far ("due on the mobile app in December"), or a deadline
  // ("needed by 12/4"): the time is of the due date.
  const dueAt = time ? dueBefore(words, time.at[0] ?? 0) : undefined
  // "by Friday" is a deadline, and so is the time of what is on the asker's plate ("on my plate
  // this week"): what is due by its end, what is overdue included.
  const deadline = time !== null && (words[time.at[0] ?? 0] === 'by' || plate)
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
    if (time.from && !plate) filters.due_after = filters.due_after ?? isoDay(time.from)
    if (time.to)
      filters.due_before = filters.due_before ?? isoDay(new Date(time.to.getTime() - DAY))
    filters.status = filters.status ?? [...OPEN_STATUSES]
    for (const at of [...(dueAt === undefined ? [] : [dueAt]), ...time.at]) used.add(at)
    for (const at of taskNouns) used.add(at)
    return { used, kinds, placed: true }
  }
  // "created this month", "new tasks in search this week", "what was added in the last two
  // weeks": a word of making with a time makes it the time of creating.
  const made = time ? words.findIndex((word) => CREATION.test(word)) : -1
  if (made >= 0) used.add(made)
  // "since Monday" always filters; another time when something else does, or it is all there is.
  const timed = time && (time.to === null || anyFilter || used.size > 0 || others.length === 0)
  if (time && (timed || changed)) {
    // "done last week": the time of completing; else of the last change.
    const done = filters.status?.length === 1 && filters.status[0] === 'done' && !changed
    const [after, before] =
      made >= 0 && !done
        ? (['created_after', 'created_before'] as const)
        : done
          ? (['completed_after', 'completed_before'] as const)
          : (['updated_after', 'updated_before'] as const)
    if (time.from) filters[after] = filters[after] ?? time.from.toISOString()
    if (time.to) filters[before] = filters[before] ?? time.to.toISOString()
    for (const at of time.at) used.add(at)
    // A time of any item's change or making keeps every kind: "tasks" says which ("which tasks
    // were created this month"), as a status would.
    if (!done && taskNouns.length > 0 && kinds.length === 0) kinds.push('task')
    // "what changed in checkout since Monday": the verb frames the time wherever it stands.
    for (const [at, word] of words.entries()) if (CHANGE_VERBS.test(word)) used.add(at)
  }
  if (used.size > 0) for (const at of taskNouns) used.add(at)
  return { used, kinds, placed: placed() }
}

/** What a verb about people asks for, in any form ("finished": done, "wrote": said). */
export function personVerbAsks(word: string): 'done' | 'said' | 'made' | undefined {
  const verb = readVerb(word)
  return verb.form === 'base' && !/^(finish|close|complete|ship|deliver|say|write)$/.test(word)
    ? undefined
    : ownValue(PERSON_VERBS, verb.base)
}

// "what's", "who's", "it's": a word and "is", never someone's.
const CONTRACTIONS = /^(what|who|it|that|there|here|where|how|let|he|she|when|why)['’]s$/

// Words that say a task is still to do in one word.
const UNDONE = new Set(['unfinished', 'incomplete', 'undone', 'uncompleted', 'outstanding'])

// A word of finishing in any form ("done", "finish", "finished", "closed", "completing").
function isDoneWord(word: string): boolean {
  return statusWord(word) === 'done' || ['finish', 'complete', 'close'].includes(baseVerb(word))
}

// Where the denial of the word at `at` starts ("not done", "hasn't been finished", "never
// closed"), up to three words before it; -1 when nothing denies it.
function deniedAt(words: readonly string[], at: number): number {
  for (let i = at - 1; i >= Math.max(0, at - 3); i--)
    if (
      /^(not|never|hasn't|haven't|hasnt|havent|isn't|isnt|aren't|arent|wasn't|wasnt|weren't|werent|didn't|didnt)$/.test(
        (words[i] ?? '').replace('’', "'"),
      )
    )
      return i
  return -1
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
      // "my goals", "all docs", "our Q4 goals": a word of whose or how many, a word before.
      [words[at - 1], words[at - 2]].some((w) => /^(my|our|all|every)$/.test(w ?? '')),
  )
  return [...new Set(listing.map((t) => t.kind))]
}

// Ways of saying nobody has a task, or it has no due date, each a run of words.
// A word that says something is lacking, and what may be: "nobody has been assigned", "no one
// owns it", "nobody put a due date on", "don't have a deadline".
const LACKING =
  /^(no|nobody|nobody['’]s|noone|none|not|without|missing|lacking|never|hasn't|haven't|hasnt|havent|don't|dont|doesn't|doesnt|isn't|isnt|aren't|arent)$/
const ASSIGNING =
  /^(assigned|assignee|assignees|owner|owners|owns|owned|picked|looking|handling|responsible|taken|claimed)$/

// Ways of saying the asker is on something: "which projects am I on".
const ON_IT = [
  ['am', 'i', 'on'],
  ['am', 'i', 'in'],
  ['i', 'am', 'on'],
  ['i', 'am', 'in'],
  ["i'm", 'on'],
  ["i'm", 'in'],
  ['i’m', 'on'],
  ['i’m', 'in'],
  ['am', 'i', 'part', 'of'],
]

// Ways of saying a task is late besides "overdue" and "late".
const LATE = [
  ['past', 'due'],
  ['past', 'its', 'due', 'date'],
  ['past', 'their', 'due', 'date'],
  ['past', 'the', 'due', 'date'],
  ['past', 'the', 'deadline'],
  ['past', 'its', 'deadline'],
  ['past', 'their', 'deadline'],
  ['missed', 'its', 'deadline'],
  ['missed', 'their', 'deadline'],
  ['missed', 'the', 'deadline'],
  ['missed', 'deadlines'],
  ['behind', 'schedule'],
  ['slipped'],
]

/** The words that say a task is late ("slipped past their due date", "past due"), by index. */
function readLate(words: string[]): number[] {
  const at = runAt(words, LATE)
  // "slipped past their due date": the verb and the phrase after it are one.
  const next = (at[0] ?? 0) + 1
  const after = at.length === 1 ? runAt(words.slice(next), LATE.slice(0, -1)) : []
  return after[0] === 0 ? [...at, ...after.map((k) => k + next)] : at
}

// The indexes of the first run of `runs` found in `words`, or none.
function runAt(words: string[], runs: string[][]): number[] {
  for (let i = 0; i < words.length; i++)
    for (const run of runs)
      if (run.every((word, k) => words[i + k] === word))
        return Array.from({ length: run.length }, (_, k) => i + k)
  return []
}

/** The words that say what a task lacks ("nobody assigned", "no due date"), by index. */
function readMissing(words: string[]): { unassigned: boolean; undated: boolean; at: number[] } {
  const at: number[] = []
  let unassigned = false
  let undated = false
  for (const [i, word] of words.entries()) {
    if (word === 'unassigned' || word === 'unowned') {
      unassigned = true
      at.push(i)
    } else if (word === 'undated') {
      undated = true
      at.push(i)
    }
    if (!LACKING.test(word)) continue
    // What is lacking, up to three words on ("nobody has been assigned", "no due date").
    for (let j = i + 1; j <= Math.min(words.length - 1, i + 3); j++) {
      const target = words[j] as string
      const dated = (target === 'due' && words[j + 1] === 'date') || /^deadlines?$/.test(target)
      if (ASSIGNING.test(target) || dated) {
        if (dated) undated = true
        else unassigned = true
        for (let k = i; k <= j + (target === 'due' ? 1 : 0); k++) at.push(k)
        break
      }
    }
  }
  return { unassigned, undated, at }
}
