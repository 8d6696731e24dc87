import { allKinds } from '../catalogue/catalogue.ts'
import type { HealthVerdict } from '../graph/okrs/okr-health.ts'
import type { TASK_STATUSES } from '../graph/tasks/tasks.schemas.ts'
import type { SearchKind } from './search.schemas.ts'

/*
 * The words a question is read by (docs/api.md, "Filters in the query"): function words, status
 * and health words, words for kinds, and the small tests on them that the parser and the readers
 * of natural filters share.
 */

/** A task status. */
export type TaskStatus = (typeof TASK_STATUSES)[number]

/**
 * Function words and the words of a question ("what is", "status of"): searching them finds
 * everything, so they never count towards how much of a question an item covers.
 */
export const STOP_WORDS = new Set(
  `a an the and or but if then so of in on at to for from by with without about into onto over
  under as is are was were be been being am do does did doing done have has had having can could
  shall should will would may might must i me my mine we us our ours you your yours he him his she
  her hers it its they them their theirs this that these those there here what what's whats which
  who who's whos whom whose where where's when why how how's hows any all some each every no not only own same
  than too very just also please show find list give tell get see let let's know want need
  latest current currently going happening happened update updates news regarding re vs up
  anything something everything anyone someone everybody anybody somebody now right moment
  looking`
    .split(/\s+/)
    .filter(Boolean),
)

/** Words that name a status; "done" is a stop word too, and the status rules run first. */
const STATUS_WORDS: Record<string, TaskStatus> = {
  blocked: 'blocked',
  blocking: 'blocked',
  blocker: 'blocked',
  blockers: 'blocked',
  blocks: 'blocked',
  stuck: 'blocked',
  stalled: 'blocked',
  done: 'done',
  completed: 'done',
  finished: 'done',
  closed: 'done',
  todo: 'todo',
  todos: 'todo',
  ongoing: 'in_progress',
}

/** Words for "what stands in the way", a status even without "tasks" next to them. */
export const BLOCKING = new Set(['blocking', 'blocker', 'blockers', 'blocks'])

/** Words for tasks. */
export const TASK_NOUNS = new Set([
  'task',
  'tasks',
  'subtask',
  'subtasks',
  'items',
  'work',
  'tickets',
  'stuff',
  'things',
])

/** Words for tasks ("tasks", "items"): next to a filter they say what to list, not what to find. */
export function isTaskNoun(word: string): boolean {
  return TASK_NOUNS.has(word)
}

/**
 * The words that name a searchable kind in a question: its name, its noun, its plural, its
 * aliases.
 */
export const TYPE_NAMES = new Map<string, SearchKind>(
  allKinds()
    .filter((kind) => kind.search)
    .flatMap((kind) =>
      [kind.name, kind.noun, kind.plural, ...(kind.aliases ?? [])].map((word) => [word, kind.name]),
    ),
)

/**
 * Plural names of the kinds besides tasks ("canvases", "OKRs", "people"): in a question such as
 * "which OKRs are off track" or "canvases in checkout" they say what to list.
 */
export const TYPE_PLURALS = new Map<string, SearchKind>(
  allKinds()
    .filter((kind) => kind.search && kind.name !== 'task' && kind.plural !== kind.name)
    .flatMap((kind) => [kind.plural, ...(kind.aliases ?? [])].map((word) => [word, kind.name])),
)

/** An objective's health in one word; "behind" only next to a word for objectives. */
export const HEALTH_WORDS: Record<string, { verdicts: HealthVerdict[]; weak: boolean }> = {
  'off-track': { verdicts: ['off_track'], weak: false },
  offtrack: { verdicts: ['off_track'], weak: false },
  'at-risk': { verdicts: ['at_risk'], weak: false },
  'on-track': { verdicts: ['on_track'], weak: false },
  achieved: { verdicts: ['achieved'], weak: true },
  behind: { verdicts: ['at_risk', 'off_track'], weak: true },
}

/** Words after a kind's plural that show it says what to list: "canvases in …", "OKRs that …". */
export const LISTING_AFTER =
  /^(in|on|about|for|from|of|with|that|which|due|owned|assigned|created|by|are|is|off|at|changed|updated|edited)$/

/** Verbs that say a time is of the last change: "changed last week", "updated since Monday". */
export const CHANGE_VERBS = /^(updated|changed|edited|modified)$/

/** The days of the week in the order of `Date.getUTCDay()`: "since Monday". */
export const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
]

/** The values `status:` takes, in the ways people write them. */
export const STATUS_VALUES: Record<string, TaskStatus> = {
  todo: 'todo',
  'to-do': 'todo',
  in_progress: 'in_progress',
  'in-progress': 'in_progress',
  inprogress: 'in_progress',
  doing: 'in_progress',
  blocked: 'blocked',
  done: 'done',
}

/** What is still to do: "overdue" and "due …" mean these. */
export const OPEN_STATUSES: TaskStatus[] = ['todo', 'in_progress', 'blocked']

/**
 * A table's own entry for a word, never what every object inherits ("constructor", "toString").
 */
export function ownValue<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined
}

/** The status a word names, if it names one. */
export function statusWord(word: string): TaskStatus | undefined {
  return ownValue(STATUS_WORDS, word)
}

/** Words for a kind ("tasks", "projects", "people"): with a team or person named, what to list. */
export function isKindWord(word: string): boolean {
  return TASK_NOUNS.has(word) || TYPE_PLURALS.has(word)
}

/** The word a question's team reads as for "my team": the team the asker is on. */
export const MY_TEAM = 'my'
