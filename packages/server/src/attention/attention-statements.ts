import type { OkrHealth } from '../graph/okrs/okr-health.ts'
import { named, type SummaryBuilder, type Value } from '../summaries/summary-builder.ts'
import { day, dueWords, type Mentions } from '../summaries/summary-context.ts'
import {
  type AttentionCounts,
  type AttentionObjective,
  type AttentionTask,
  DUE_SOON_DAYS,
} from './attention.queries.ts'
import type { AttentionFocus } from './attention-focus.ts'

/** Why an item is in the answer: its link's `rel`, most pressing first. */
export type AttentionReason = 'overdue' | 'blocked' | 'off_track' | 'at_risk' | 'due_soon'

/** An objective with its health, as the answer ranks it. */
export type ObjectiveAtRisk = AttentionObjective & { health: OkrHealth }

/** The reason a task needing attention is listed under: the first that applies. */
function taskReason(task: AttentionTask, today: string): AttentionReason {
  if (task.due !== null && task.due < today) return 'overdue'
  return task.status === 'blocked' ? 'blocked' : 'due_soon'
}

/**
 * Says one task and why it needs attention: `“Ship” [1] was due 2026-11-06, 20 days ago
 * (overdue), and is blocked; assigned to “Ada” [2], in “Checkout” [3].` The focus itself (its
 * person, its project) is not named again.
 */
export function sayTask(
  b: SummaryBuilder,
  mentions: Mentions,
  task: AttentionTask,
  focus: AttentionFocus,
  today: string,
): void {
  const ref = mentions.ref(task.id)
  if (!ref) return
  const reason = taskReason(task, today)
  const state: Value[] =
    reason === 'blocked'
      ? ['is blocked', task.due ? `; it ${dueWords(task.due, false, today)}` : '']
      : [dueWords(task.due, false, today), task.status === 'blocked' ? ', and is blocked' : '']
  const around: Value[] = []
  if (focus.id !== task.assignee_id) {
    const assignee = mentions.ref(task.assignee_id)
    around.push(assignee ? ['assigned to ', named(assignee)] : task.assignee_id ? '' : 'unassigned')
  }
  const project = focus.id === task.project_id ? undefined : mentions.ref(task.project_id)
  if (project) around.push(['in ', named(project)])
  const said = around.filter((part) => part !== '')
  const tail: Value[] = said.length > 0 ? ['; ', ...joinParts(said)] : []
  b.say`${named(ref)} ${state}${tail}.`
  b.link(reason, ref)
}

/**
 * Says one objective that is behind: `Objective “Grow” [4] (2026-Q4) is off track: 20% done
 * where 60% was expected by now; latest confidence 40%; owner “Ama” [5].`
 */
export function sayObjective(
  b: SummaryBuilder,
  mentions: Mentions,
  objective: ObjectiveAtRisk,
  focus: AttentionFocus,
): void {
  const ref = mentions.ref(objective.id)
  if (!ref) return
  const { verdict, expected_progress } = objective.health
  const confidence =
    objective.confidence === null ? '' : `; latest confidence ${percent(objective.confidence)}`
  const owner = focus.id === objective.owner_id ? undefined : mentions.ref(objective.owner_id)
  b.say`Objective ${named(ref)} (${objective.session}) is ${verdict.replace('_', ' ')}: ${percent(objective.progress)} done where ${percent(expected_progress)} was expected by now${confidence}${owner ? ['; owner ', named(owner)] : ''}.`
  b.link(verdict, ref)
}

/** A share as a whole percentage: 0.4 → "40%". */
export function percent(share: number): string {
  return `${Math.round(share * 100)}%`
}

// "a", "a, b": the parts of a task's context, each already worded.
function joinParts(parts: Value[]): Value[] {
  return parts.flatMap((part, i) => (i === 0 ? [part] : [', ', part]))
}

/** The numbers an answer opens with: a part is null when the token may not read its kind. */
export interface Overview {
  today: string
  counts: AttentionCounts | null
  objectives: readonly ObjectiveAtRisk[] | null
  /** How many changes (by anyone but the caller) are told. */
  changes: number | null
  since: Date
}

/**
 * The first statement: how many open tasks are overdue, blocked and due soon, how many objectives
 * are behind, and whether anyone but the caller changed anything since; only the numbers that are not zero,
 * and "Nothing needs attention" when all are.
 */
export function sayOverview(b: SummaryBuilder, overview: Overview): void {
  const { counts, objectives, changes } = overview
  const by = dueBy(overview.today)
  const parts: string[] = []
  if (counts) {
    const tasks = nonZero([
      [counts.overdue, 'overdue'],
      [counts.blocked, 'blocked'],
      [counts.due_soon, `due by ${by}`],
    ])
    parts.push(tasks ? `open tasks: ${tasks}` : `no open task overdue, blocked or due by ${by}`)
  }
  if (objectives) {
    const off = objectives.filter((o) => o.health.verdict === 'off_track').length
    const behind = nonZero([
      [off, 'off track'],
      [objectives.length - off, 'at risk'],
    ])
    parts.push(behind ? `objectives this period: ${behind}` : 'no objective behind')
  }
  if (changes !== null)
    parts.push(
      `${changes === 0 ? 'no change' : 'changes'} by anyone but you since ${day(overview.since)}`,
    )
  const none = (counts?.total ?? 0) === 0 && (objectives?.length ?? 0) === 0 && (changes ?? 0) === 0
  b.say`${none ? 'Nothing needs attention' : 'Needing attention'} as of ${overview.today}: ${parts.join('; ')}.`
}

// "2 overdue and 1 blocked": the counts that are not zero, each with its words; '' when none.
function nonZero(counts: [number, string][]): string {
  const said = counts.filter(([n]) => n > 0).map(([n, words]) => `${n} ${words}`)
  return said.length <= 1 ? (said[0] ?? '') : `${said.slice(0, -1).join(', ')} and ${said.at(-1)}`
}

// The last day that counts as due soon.
function dueBy(today: string): string {
  return new Date(Date.parse(today) + (DUE_SOON_DAYS - 1) * 86_400_000).toISOString().slice(0, 10)
}
