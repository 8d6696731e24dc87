import { readCommentSubject } from './comment-subject.ts'
import { isFiller } from './filler-words.ts'
import { heardWord } from './heard-words.ts'
import {
  personVerbAsks,
  readNaturalFilters,
  readPersonWords,
  readTeamWords,
} from './natural-filters.ts'
import { isoDay, isValidDay, overdue, shiftDay } from './question-dates.ts'
import {
  isTaskNoun,
  OPEN_STATUSES,
  ownValue,
  STATUS_VALUES,
  STOP_WORDS,
  statusWord,
  type TaskStatus,
  TYPE_NAMES,
} from './question-vocabulary.ts'
import type { SearchKind } from './search.schemas.ts'
import type { SearchFilterValues } from './search-filter-values.ts'
import { longForm } from './short-forms.ts'
import { timeWordSpelling } from './time-word-spelling.ts'
import { readVerb } from './verb-lemma.ts'
import { spellingVariants } from './word-variants.ts'

/*
 * Reads a search query as a question (docs/api.md, "Search"): which words carry its meaning, which
 * words name a filter ("blocked tasks in checkout", "my overdue tasks", "done last week"), and the
 * explicit grammar (`status:blocked`, `due<2026-12-01`, …). Pure text work: what a name refers to
 * (a project, a person) is resolved later, against what the caller may open.
 */

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
  person: { words: string[]; role: 'assignee' | 'creator' } | null
  /**
   * Words that may name a team whose people, projects or tasks are asked for: "people on the
   * platform team", "the web team's tasks". As for a person, they filter only when they name a
   * team the caller may see.
   */
  team: { words: string[]; kinds: SearchKind[] } | null
  /**
   * Words that may title what the question asks comments on ("any discussion on the type scale
   * task"): only when they name something the caller may open do they become the `on` filter.
   */
  on: { words: string[]; frame: string[]; kind: string | null } | null
  /** Kinds named with `type:`; null when the query names none. */
  types: SearchKind[] | null
  /**
   * What the query typed in the filter grammar (`status:blocked`, `due<2026-12-01`, `type:task`):
   * the names of those filters, and whether `type:` named the kinds. They say exactly what is
   * wanted, so an answer never drops them as it may drop filters read from words.
   */
  typed: { filters: string[]; kinds: boolean }
  /**
   * The status was read from "working on" or "doing" (in progress): when nothing is, the answer
   * is what the person still has to do, which is what such a question means then.
   */
  workingOrOpen: boolean
  /** The meaningful words, normalized like a title, to find the item whose name is the query. */
  exact: string
  /**
   * When no phrase named a person: what the question asks of whoever its words may name ("jonas
   * tasks which are late", "what Kemi is doing now"), read from the words around, and whether it
   * asks about work at all. `run-search.ts` looks for a word that is exactly one person's name.
   */
  bareName: { state: 'working' | 'open' | 'done' | 'said' | null; work: boolean } | null
}

const MAX_TERMS = 12

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
  const typed = { filters: Object.keys(filters), kinds: types !== null }
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
    } else if (/[\p{L}\p{N}]/u.test(text))
      tokens.push({ kind: 'word', text: timeWordSpelling(longForm(text)) })
  }
  // "Do" heard for "due", read from the words beside it.
  for (const [i, token] of tokens.entries()) {
    const [before, after] = [tokens[i - 1], tokens[i + 1]]
    if (token.kind === 'word')
      token.text = heardWord(
        token.text,
        before?.kind === 'word' ? before.text : undefined,
        after?.kind === 'word' ? after.text : undefined,
      )
  }
  const words = tokens.flatMap((t, i) =>
    t.kind === 'word' && !isFiller(t.text) ? [{ text: t.text, at: i }] : [],
  )
  const texts = words.map((w) => w.text)
  const person = readPersonWords(texts)
  // What is asked of the person comes first: "what did Kemi finish last week" is a time of
  // completing, as "done last week" is.
  const state = person?.state
  if (state && !filters.status) {
    if (state === 'working') filters.status = ['in_progress']
    if (state === 'open') filters.status = [...OPEN_STATUSES]
    if (state === 'done') filters.status = ['done']
    if (state === 'blocked') filters.status = ['blocked']
  }
  // "What did we close out", "what have they shipped": everyone's finished work, no one's name.
  // A verb's base form only after "did" or "have" ("are we close" is not of finishing).
  const weFinished = texts.some(
    (word, i) =>
      /^(we|they)$/.test(word) &&
      personVerbAsks(texts[i + 1] ?? '') === 'done' &&
      (/^(did|have|had)$/.test(texts[i - 1] ?? '') || readVerb(texts[i + 1] ?? '').form !== 'base'),
  )
  if (!person && !filters.status && weFinished) filters.status = ['done']
  // The asker ("which tasks did I create", "what did I finish"): no name to look up.
  const asker = person?.words.length === 1 && person.words[0] === 'me'
  if (asker && (state === 'said' || state === 'made')) filters.created_by ??= 'me'
  else if (asker && (state === 'done' || state === 'working')) filters.assignee ??= 'me'
  const named = words.flatMap((w, i) =>
    person?.words.includes(w.text.replace(/['’]s$/, '')) ? [i] : [],
  )
  const { used, kinds, placed } = readNaturalFilters(
    words.map((w) => w.text),
    filters,
    now,
    { name: named, frame: person?.frame ?? [] },
  )
  // An explicit `type:` wins over the kinds a question names in words; what someone said is
  // their comments.
  if (kinds.length > 0 && !types) types = kinds
  if (state === 'said' && !types) types = ['comment']
  // "which tasks did I create": the creator's tasks, not everything they wrote.
  if (state === 'made' && !types && words.some((w) => isTaskNoun(w.text))) types = ['task']
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
  const bare = person ? null : bareNameAsk(texts, used.size > 0)
  // "I" where a name would be ("what have I got overdue", "what did I get done in November"):
  // the asker, when it is the subject of the work ("did I", "I got", not "I'd like to know")
  // and the question is about work in a state, not about some kind of thing.
  const askerAsked =
    bare !== null &&
    !types &&
    texts.some(
      (word, i) =>
        word === 'i' &&
        (/^(did|do|have|am)$/.test(texts[i - 1] ?? '') ||
          /^(got|get|have|did|need|must|owe)$/.test(texts[i + 1] ?? '')),
    ) &&
    filters.assignee === undefined &&
    filters.created_by === undefined &&
    (filters.status !== undefined ||
      bare.state === 'working' ||
      bare.state === 'done' ||
      bare.state === 'said' ||
      texts.some((word) => /^(got|busy|plate|workload)$/.test(word)))
  if (askerAsked && bare.state === 'said') {
    filters.created_by = 'me'
    types = ['comment']
  } else if (askerAsked) {
    filters.assignee = 'me'
    if (!filters.status && bare.state === 'working') filters.status = ['in_progress']
    if (!filters.status && bare.state === 'done') filters.status = ['done']
    if (!filters.status) filters.status = [...OPEN_STATUSES]
  }
  return {
    terms: terms.slice(0, MAX_TERMS),
    phrases: tokens.flatMap((t) => (t.kind === 'phrase' && !t.negated ? [t.text] : [])),
    excluded: tokens.flatMap((t) =>
      t.kind === 'excluded' || (t.kind === 'phrase' && t.negated) ? [t.text] : [],
    ),
    filters,
    project,
    person:
      person && !asker
        ? {
            words: person.words,
            role: state === 'said' || state === 'made' ? 'creator' : 'assignee',
          }
        : null,
    team: readTeamWords(
      words.map((w) => w.text),
      types,
    ),
    on: commentSubject(words.map((w) => w.text)),
    types,
    typed,
    workingOrOpen: state === 'working' && filters.status?.join() === 'in_progress',
    exact: normalizeTitle(searched.map((w) => w.text).join(' ')),
    bareName: askerAsked ? null : bare,
  }
}

// What a question without a named person asks of someone its words may name: their work in
// progress ("doing", "working"), their open work ("busy", "open", "plate", "got", "has"), what
// they finished or said (a verb of people in any form); `work` when it asks about work at all
// (those words, a word for tasks, or a filter read from the words).
function bareNameAsk(words: string[], filtered: boolean): ParsedQuestion['bareName'] {
  let state: NonNullable<ParsedQuestion['bareName']>['state'] = null
  for (const word of words) {
    if (/^(doing|working)$/.test(word)) state ??= 'working'
    else if (/^(busy|open|plate|got|has|have|workload|backlog|queue)$/.test(word)) state ??= 'open'
    else {
      const asks = personVerbAsks(word) ?? (statusWord(word) === 'done' ? 'done' : undefined)
      // A verb of finishing or saying says more than "has" before it ("what has Ines done").
      if (asks === 'done' || asks === 'said') state = state === 'open' || !state ? asks : state
    }
  }
  // "the work", "stuff" and "things" are too loose to say a question is about someone's tasks.
  const work =
    state !== null || filtered || words.some((word) => /^(tasks?|tickets?|items|todos)$/.test(word))
  return work ? { state, work } : null
}

// What the question asks comments on, with the words that frame it as text.
function commentSubject(words: string[]): ParsedQuestion['on'] {
  const subject = readCommentSubject(words)
  return (
    subject && {
      words: subject.words,
      frame: subject.frame.map((at) => words[at] as string),
      kind: subject.kind,
    }
  )
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
  // Before the first day or after the last: no day the service stores is meant.
  if (!isValidDay(day)) return null
  if (key === 'due') {
    filters[before ? 'due_before' : 'due_after'] = day
    return 'filter'
  }
  if (key === 'updated') {
    // A time range: updated before a day means before it begins, so the inclusive day ends.
    const edge = before ? shiftDay(day, 1) : day
    if (!isValidDay(edge)) return null
    filters[before ? 'updated_before' : 'updated_after'] = `${edge}T00:00:00.000Z`
    return 'filter'
  }
  return null
}
