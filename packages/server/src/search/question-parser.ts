import { allKinds } from '../catalogue/catalogue.ts'
import type { HealthVerdict } from '../graph/okrs/okr-health.ts'
import type { TASK_STATUSES } from '../graph/tasks/tasks.schemas.ts'
import type { SearchKind } from './search.schemas.ts'
import { spellingVariants } from './word-variants.ts'

/*
 * Reads a search query as a question (docs/api.md, "Search"): which words carry its meaning, which
 * words name a filter ("blocked tasks in checkout", "my overdue tasks", "done last week"), and the
 * explicit grammar (`status:blocked`, `due<2026-12-01`, …). Pure text work: what a name refers to
 * (a project, a person) is resolved later, against what the caller may open.
 */

/** A task status. */
export type TaskStatus = (typeof TASK_STATUSES)[number]

/** Filters as the API names them (the request's `filters` and `interpreted.filters`). */
export interface SearchFilterValues {
  status?: TaskStatus[]
  assignee?: string
  project_id?: string
  due_before?: string
  due_after?: string
  updated_after?: string
  updated_before?: string
  /** Tasks completed at or after this time. */
  completed_after?: string
  /** Tasks completed before this time. */
  completed_before?: string
  /** Objectives whose health is one of these. */
  health?: HealthVerdict[]
  /** A team's id or name: its members, its projects, the tasks assigned to its members. */
  team?: string
  created_by?: string
}

/** One meaningful word of the question: an item covers the question by matching its terms. */
export interface QueryTerm {
  /** The word as asked (lower case), shown in `interpreted.words`. */
  text: string
  /** Texts any of which covers the term: the word, its other spellings, `or` alternatives. */
  alternatives: string[]
  /**
   * The one word it makes with a neighbour written apart ("road map" → "roadmap"): searched as an
   * alternative only where some item the caller may open has it (search.queries.ts), since a
   * made-up word has no statistics and the planner guesses it common.
   */
  joined: string[]
  /** A prefix that covers the term too: the last word of a query may be half typed. */
  prefix: string | null
  /** The word compared with titles by trigram similarity, for typos; null when too short. */
  fuzzy: string | null
}

/** What a query asks for. */
export interface ParsedQuestion {
  terms: QueryTerm[]
  /** Quoted phrases: every hit contains each of them. */
  phrases: string[]
  /** `-word` and `-"phrase"`: no hit contains any of them. */
  excluded: string[]
  filters: SearchFilterValues
  /** Words naming a project: `project:checkout` (explicit), or the rest of "blocked tasks in …". */
  project: { words: string; explicit: boolean } | null
  /**
   * Words that may name the person tasks are assigned to: "Kemi's tasks", "assigned to Jonas
   * Weber", "blocked tasks for Jonas", "what is Ben doing". They stay among the terms: only when
   * they name someone the caller may see do they become the assignee filter (`run-search.ts`).
   */
  person: { words: string[] } | null
  /**
   * Words that may name a team whose people, projects or tasks are asked for: "people on the
   * platform team", "the web team's tasks". As for a person, they filter only when they name a
   * team the caller may see.
   */
  team: { words: string[]; kinds: SearchKind[] } | null
  /** Kinds named with `type:`; null when the query names none. */
  types: SearchKind[] | null
  /** The meaningful words, normalized like a title, to find the item whose name is the query. */
  exact: string
}

// Function words and the words of a question ("what is", "status of"): searching them finds
// everything, so they never count towards how much of a question an item covers.
const STOP_WORDS = new Set(
  `a an the and or but if then so of in on at to for from by with without about into onto over
  under as is are was were be been being am do does did doing done have has had having can could
  shall should will would may might must i me my mine we us our ours you your yours he him his she
  her hers it its they them their theirs this that these those there here what what's whats which
  who whom whose where where's when why how how's any all some each every no not only own same
  than too very just also please show find list give tell get see let let's know want need
  latest current currently going happening happened update updates news regarding re vs up`
    .split(/\s+/)
    .filter(Boolean),
)
// "done" is a stop word above but a status below: the status rules run first.
const STATUS_WORDS: Record<string, TaskStatus> = {
  blocked: 'blocked',
  blocking: 'blocked',
  blocker: 'blocked',
  blockers: 'blocked',
  blocks: 'blocked',
  done: 'done',
  completed: 'done',
  finished: 'done',
  closed: 'done',
  todo: 'todo',
  todos: 'todo',
  ongoing: 'in_progress',
}
// Words for "what stands in the way", a status even without "tasks" next to them.
const BLOCKING = new Set(['blocking', 'blocker', 'blockers', 'blocks'])
const TASK_NOUNS = new Set(['task', 'tasks', 'subtask', 'subtasks', 'items', 'work', 'tickets'])

/** Words for tasks ("tasks", "items"): next to a filter they say what to list, not what to find. */
export function isTaskNoun(word: string): boolean {
  return TASK_NOUNS.has(word)
}
// The words that name a searchable kind in a question: its name, its noun, its plural, its aliases.
const TYPE_NAMES = new Map<string, SearchKind>(
  allKinds()
    .filter((kind) => kind.search)
    .flatMap((kind) =>
      [kind.name, kind.noun, kind.plural, ...(kind.aliases ?? [])].map((word) => [word, kind.name]),
    ),
)
// Plural names of the kinds besides tasks ("canvases", "OKRs", "people"): in a question such
// as "which OKRs are off track" or "canvases in checkout" they say what to list.
const TYPE_PLURALS = new Map<string, SearchKind>(
  allKinds()
    .filter((kind) => kind.search && kind.name !== 'task' && kind.plural !== kind.name)
    .flatMap((kind) => [kind.plural, ...(kind.aliases ?? [])].map((word) => [word, kind.name])),
)
// An objective's health in one word; "behind" only next to a word for objectives.
const HEALTH_WORDS: Record<string, { verdicts: HealthVerdict[]; weak: boolean }> = {
  'off-track': { verdicts: ['off_track'], weak: false },
  offtrack: { verdicts: ['off_track'], weak: false },
  'at-risk': { verdicts: ['at_risk'], weak: false },
  'on-track': { verdicts: ['on_track'], weak: false },
  achieved: { verdicts: ['achieved'], weak: true },
  behind: { verdicts: ['at_risk', 'off_track'], weak: true },
}
// Words after a kind's plural that show it says what to list: "canvases in …", "OKRs that …".
const LISTING_AFTER =
  /^(in|on|about|for|from|of|with|that|which|due|owned|assigned|created|by|are|is|off|at|changed|updated|edited)$/
// Verbs that say a time is of the last change: "changed last week", "updated since Monday".
const CHANGE_VERBS = /^(updated|changed|edited|modified)$/
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']
const STATUS_VALUES: Record<string, TaskStatus> = {
  todo: 'todo',
  'to-do': 'todo',
  in_progress: 'in_progress',
  'in-progress': 'in_progress',
  inprogress: 'in_progress',
  doing: 'in_progress',
  blocked: 'blocked',
  done: 'done',
}
const OPEN_STATUSES: TaskStatus[] = ['todo', 'in_progress', 'blocked']

// A table's own entry for a word, never what every object inherits ("constructor", "toString").
function ownValue<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined
}

// The status a word names, if it names one.
function statusWord(word: string): TaskStatus | undefined {
  return ownValue(STATUS_WORDS, word)
}
const MAX_TERMS = 12
const DAY = 86_400_000

type Token =
  | { kind: 'word'; text: string }
  | { kind: 'or' }
  | { kind: 'phrase'; text: string; negated: boolean }
  | { kind: 'excluded'; text: string }

/** Parses a normalized query at time `now` (what "last week" and "overdue" mean). */
export function parseQuestion(query: string, now: Date): ParsedQuestion {
  const filters: SearchFilterValues = {}
  let project: ParsedQuestion['project'] = null
  let types: SearchKind[] | null = null
  const tokens: Token[] = []
  // Explicit filters first, so that `project:"data platform"` keeps its quotes to itself.
  const rest = query.replace(
    /(?<=^|\s)([a-z_]+)(:|<=|>=|<|>)("([^"]*)"?|\S*)/gi,
    (whole, key: string, op: string, raw: string, quoted?: string) => {
      const value = (quoted ?? raw).trim()
      const applied = applyExplicit(key.toLowerCase(), op, value, filters, now)
      if (applied === 'project') project = { words: value, explicit: true }
      else if (applied === 'type') {
        const type = TYPE_NAMES.get(value.toLowerCase())
        if (type) types = [...new Set([...(types ?? []), type])]
        else return whole
      } else if (!applied) return whole
      return ' '
    },
  )
  for (const match of rest.matchAll(/(-?)"([^"]*)"?|(\S+)/g)) {
    if (match[2] !== undefined) {
      const text = match[2].trim()
      if (/[\p{L}\p{N}]/u.test(text)) tokens.push({ kind: 'phrase', text, negated: !!match[1] })
      continue
    }
    const raw = match[3] as string
    if (/^or$/i.test(raw)) {
      tokens.push({ kind: 'or' })
      continue
    }
    const text = raw.replace(/^[^\p{L}\p{N}-]+|[^\p{L}\p{N}]+$/gu, '').toLowerCase()
    if (text.startsWith('-')) {
      const word = text.replace(/^-+/, '')
      if (/[\p{L}\p{N}]/u.test(word)) tokens.push({ kind: 'excluded', text: word })
    } else if (/[\p{L}\p{N}]/u.test(text)) tokens.push({ kind: 'word', text })
  }
  const words = tokens.flatMap((t, i) => (t.kind === 'word' ? [{ text: t.text, at: i }] : []))
  const person = readPersonWords(words.map((w) => w.text))
  const { used, kinds, placed } = readNaturalFilters(
    words.map((w) => w.text),
    filters,
    now,
  )
  // An explicit `type:` wins over the kinds a question names in words.
  if (kinds.length > 0 && !types) types = kinds
  if (person?.working && !filters.status) filters.status = ['in_progress']
  for (const at of person?.frame ?? []) used.add(at)
  // "status of X", "progress on X": the question's frame, not what it is about.
  const framing = new Set(
    words.flatMap((w, i) =>
      /^(status|progress|state)$/.test(w.text) && /^(of|on|for)$/.test(words[i + 1]?.text ?? '')
        ? [i]
        : [],
    ),
  )
  const kept = words.filter((_, i) => !used.has(i) && !framing.has(i))
  const meaningful = kept.filter((w) => !STOP_WORDS.has(w.text))
  // A question of nothing but function words ("what is this") still searches for them.
  const searched = meaningful.length > 0 || used.size > 0 ? meaningful : kept
  const searchedAt = new Set(searched.map((w) => w.at))
  if ((placed || (person?.frame.length ?? 0) > 0) && !project && searched.length > 0) {
    project = { words: searched.map((w) => w.text).join(' '), explicit: false }
  }
  const terms: QueryTerm[] = []
  for (const [i, token] of tokens.entries()) {
    if (token.kind !== 'word' || !searchedAt.has(i)) continue
    const previous = tokens[i - 1]
    const last = terms.at(-1)
    if (previous?.kind === 'or' && last && tokens[i - 2]?.kind === 'word') {
      last.alternatives.push(token.text, ...alternativesOf(token.text).slice(1))
      last.text = `${last.text} or ${token.text}`
      last.fuzzy = null
      continue
    }
    terms.push({
      text: token.text,
      alternatives: alternativesOf(token.text),
      joined: [],
      prefix: null,
      fuzzy: /^\p{L}{5,}$/u.test(token.text) ? token.text : null,
    })
  }
  // Two words may be one written apart ("road map", "check out"): each may also match the two
  // joined, so an item that writes them as one word covers both.
  for (const [i, term] of terms.entries()) {
    const next = terms[i + 1]
    if (!next || !/^\p{L}+$/u.test(term.text) || !/^\p{L}+$/u.test(next.text)) continue
    const joined = `${term.text}${next.text}`
    term.joined.push(joined)
    next.joined.push(joined)
  }
  // The last word may be half typed, unless the query ends in a space or punctuation.
  const lastTerm = terms.at(-1)
  const lastWord = tokens.at(-1)
  if (
    lastTerm &&
    lastWord?.kind === 'word' &&
    lastTerm.text.endsWith(lastWord.text) &&
    /[\p{L}\p{N}]$/u.test(query) &&
    /^[\p{L}\p{N}]{3,}$/u.test(lastWord.text)
  ) {
    lastTerm.prefix = lastWord.text
  }
  return {
    terms: terms.slice(0, MAX_TERMS),
    phrases: tokens.flatMap((t) => (t.kind === 'phrase' && !t.negated ? [t.text] : [])),
    excluded: tokens.flatMap((t) =>
      t.kind === 'excluded' || (t.kind === 'phrase' && t.negated) ? [t.text] : [],
    ),
    filters,
    project,
    person: person ? { words: person.words } : null,
    team: readTeamWords(
      words.map((w) => w.text),
      types,
    ),
    types,
    exact: normalizeTitle(searched.map((w) => w.text).join(' ')),
  }
}

// Words that end a person's name in "assigned to …" and "for …": anything that is no name.
const NOT_NAME = /^(today|tomorrow|yesterday|this|next|last|week|month|in|on|at|due|and|or|with)$/

/**
 * The words that may name an assignee, and the words around them that only frame the question
 * (`assigned`, `to`, `for`, `working`, `doing`), by their indexes; `working` when the question
 * asks what someone is doing (their tasks in progress).
 */
function readPersonWords(
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
function readTeamWords(
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

/** Words for a kind ("tasks", "projects", "people"): with a team or person named, what to list. */
export function isKindWord(word: string): boolean {
  return TASK_NOUNS.has(word) || TYPE_PLURALS.has(word)
}

/** A title as `exact` compares it: lower case, words separated by single spaces. */
export function normalizeTitle(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

// The word, its other spellings and, for a hyphenated word, the same words apart and joined
// ("post-mortem" also finds "post mortem" and "postmortem").
function alternativesOf(word: string): string[] {
  const out = [word, ...spellingVariants(word)]
  if (/\p{L}-\p{L}/u.test(word)) out.push(`"${word.replace(/-/g, ' ')}"`, word.replace(/-/g, ''))
  return out
}

// Applies `key:value` (or `key<value`); returns what it was, or null to search it as words.
function applyExplicit(
  key: string,
  op: string,
  value: string,
  filters: SearchFilterValues,
  now: Date,
): 'filter' | 'project' | 'type' | null {
  if (value === '') return null
  if (op === ':') {
    if (key === 'status') {
      const statuses = value.split(',').map((v) => ownValue(STATUS_VALUES, v.toLowerCase()))
      if (statuses.some((s) => s === undefined)) return null
      filters.status = [...new Set(statuses as TaskStatus[])]
      return 'filter'
    }
    if (key === 'assignee') {
      filters.assignee = value.toLowerCase() === 'me' ? 'me' : value
      return 'filter'
    }
    if (key === 'team') {
      filters.team = value
      return 'filter'
    }
    if (key === 'created_by' || key === 'author') {
      filters.created_by = value.toLowerCase() === 'me' ? 'me' : value
      return 'filter'
    }
    if (key === 'project') {
      if (/^prj_\w+$/.test(value)) {
        filters.project_id = value
        return 'filter'
      }
      return 'project'
    }
    if (key === 'type') return 'type'
    if (key === 'is' && value.toLowerCase() === 'overdue') {
      overdue(filters, now)
      return 'filter'
    }
    return null
  }
  const date = value.toLowerCase() === 'today' ? isoDay(now) : value
  if (!isValidDay(date)) return null
  // Filters hold inclusive days (as GET /v1/tasks does): `due<D` is due on or before the day
  // before D, `due>D` on or after the day after; `<=` and `>=` keep D itself.
  const strict = op.length === 1
  const before = op.startsWith('<')
  const day = strict ? shiftDay(date, before ? -1 : 1) : date
  if (key === 'due') {
    filters[before ? 'due_before' : 'due_after'] = day
    return 'filter'
  }
  if (key === 'updated') {
    // A time range: updated before a day means before it begins, so the inclusive day ends.
    const edge = before ? shiftDay(day, 1) : day
    filters[before ? 'updated_before' : 'updated_after'] = `${edge}T00:00:00.000Z`
    return 'filter'
  }
  return null
}

function shiftDay(day: string, days: number): string {
  return isoDay(new Date(new Date(`${day}T00:00:00.000Z`).getTime() + days * DAY))
}

/** A real calendar day written `YYYY-MM-DD`. */
export function isValidDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
  const parsed = new Date(`${value}T00:00:00.000Z`)
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

// Due before today (due_before is inclusive) and not done.
function overdue(filters: SearchFilterValues, now: Date): void {
  filters.due_before = shiftDay(isoDay(now), -1)
  filters.status = filters.status
    ? filters.status.filter((s) => OPEN_STATUSES.includes(s))
    : [...OPEN_STATUSES]
}

/**
 * Finds the words that name a filter when the question says so, sets those filters, and returns
 * the indexes of the words it used. A status word is a filter next to a word for tasks ("blocked
 * tasks"), with a time ("done last week"), after a question ("what is blocking …"), or alone.
 */
function readNaturalFilters(
  words: string[],
  filters: SearchFilterValues,
  now: Date,
): { used: Set<number>; kinds: SearchKind[]; placed: boolean } {
  const used = new Set<number>()
  const statuses: { at: number[]; status: TaskStatus; blocking: boolean }[] = []
  const healths: { at: number[]; verdicts: HealthVerdict[]; weak: boolean }[] = []
  // A time is a window (`to` set) or, after "since", open to now.
  let time: { at: number[]; from: Date; to: Date | null } | null = null
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
  if (time?.to && words[verb] === 'due') {
    filters.due_after = filters.due_after ?? isoDay(time.from)
    filters.due_before = filters.due_before ?? isoDay(new Date(time.to.getTime() - DAY))
    filters.status = filters.status ?? [...OPEN_STATUSES]
    for (const at of [verb, ...time.at]) used.add(at)
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
    filters[after] = filters[after] ?? time.from.toISOString()
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

/**
 * When "since …" starts, and how many words say it: a weekday (its latest, today included),
 * yesterday, today, last week or month, or a day written `YYYY-MM-DD`.
 */
function sinceWhen(
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
