import type { Bundle } from '../../packages/server/src/bundle/bundle.schema.ts'
import { okrHealth } from '../../packages/server/src/graph/okrs/okr-health.ts'
import { objectiveProgress } from '../../packages/server/src/graph/okrs/okr-progress.ts'

type Task = NonNullable<Bundle['tasks']>[number]
type Okr = NonNullable<Bundle['okrs']>[number]
type Comment = NonNullable<Bundle['comments']>[number]

/** An objective's health verdict, as docs/api.md ("OKR health") names it. */
export type Health = 'achieved' | 'on_track' | 'at_risk' | 'off_track'

/** How many days ahead "due soon" reaches, today included (docs/api.md, "Attention"). */
const DUE_SOON_DAYS = 7

/**
 * The demo workspace's facts as a person reads them from its data, by the documented rules
 * (overdue, blocked, due soon, OKR health), for writing what a correct answer must contain.
 */
export class DemoFacts {
  readonly bundle: Bundle
  readonly today: string

  constructor(bundle: Bundle, today: string) {
    this.bundle = bundle
    this.today = today
  }

  /** A task by key. */
  task(key: string): Task {
    const task = this.bundle.tasks?.find((t) => t.key === key)
    if (!task) throw new Error(`no task ${key}`)
    return task
  }

  /** A person's name by key. */
  name(person: string | null | undefined): string {
    const found = this.bundle.people.find((p) => p.key === person)
    if (!found) throw new Error(`no person ${person}`)
    return found.name
  }

  /** The key of the task with this title. */
  taskTitled(title: string): string {
    const task = this.bundle.tasks?.find((t) => t.title === title)
    if (!task) throw new Error(`no task titled ${title}`)
    return task.key
  }

  /** Open tasks that keep `filter`. */
  openTasks(filter: (task: Task) => boolean = () => true): Task[] {
    return (this.bundle.tasks ?? []).filter((t) => t.status !== 'done' && filter(t))
  }

  /** Open and due before today. */
  isOverdue(task: Task): boolean {
    return task.status !== 'done' && !!task.due && task.due < this.today
  }

  /** Open and due from today to the end of the due-soon window. */
  isDueSoon(task: Task): boolean {
    const end = new Date(Date.parse(this.today) + DUE_SOON_DAYS * 86_400_000)
      .toISOString()
      .slice(0, 10)
    return task.status !== 'done' && !!task.due && task.due >= this.today && task.due < end
  }

  /**
   * The tasks of `filter` that need attention, most pressing first as the documented order has
   * it: overdue (longest first), blocked, then due soon (soonest first).
   */
  attentionTasks(filter: (task: Task) => boolean): Task[] {
    const rank = (t: Task) => (this.isOverdue(t) ? 0 : t.status === 'blocked' ? 1 : 2)
    return this.openTasks(
      (t) => filter(t) && (this.isOverdue(t) || t.status === 'blocked' || this.isDueSoon(t)),
    ).sort((a, b) => rank(a) - rank(b) || (a.due ?? '9').localeCompare(b.due ?? '9'))
  }

  /** The objectives of the current quarter that are at risk or off track, by the documented rule. */
  okrsBehind(filter: (okr: Okr) => boolean = () => true): Okr[] {
    return this.okrsWithHealth(['at_risk', 'off_track'], filter)
  }

  /**
   * An objective's health today by the rule of docs/api.md ("OKR health"): its progress against
   * the share of its session gone, and its latest confidence; null when its session names no
   * period.
   */
  health(okr: Okr): Health | null {
    const now = new Date(`${this.today}T12:00:00Z`)
    return okrHealth(this.progress(okr), this.confidence(okr), okr.session, now)?.verdict ?? null
  }

  /** The objectives whose health today is one of `verdicts`. */
  okrsWithHealth(verdicts: Health[], filter: (okr: Okr) => boolean = () => true): Okr[] {
    return (this.bundle.okrs ?? []).filter((okr) => {
      const health = this.health(okr)
      return filter(okr) && health !== null && verdicts.includes(health)
    })
  }

  /** A health verdict as a sentence says it ("at risk"). */
  healthWords(verdict: Health): string {
    return verdict.replace('_', ' ')
  }

  /**
   * Tasks that keep `filter` and were completed at or after `from` and before `to` (days, UTC):
   * done, with their `completed_at` in the span, as search's `completed_after`/`_before` read it.
   */
  completedBetween(from: string, to: string, filter: (task: Task) => boolean = () => true): Task[] {
    return (this.bundle.tasks ?? []).filter(
      (t) =>
        t.status === 'done' &&
        !!t.completed_at &&
        t.completed_at >= from &&
        t.completed_at < to &&
        filter(t),
    )
  }

  /** A task's subtasks, in the bundle's order. */
  subtasks(parent: string): Task[] {
    return (this.bundle.tasks ?? []).filter((t) => t.parent === parent)
  }

  /**
   * What a person said about a topic: their comments in which every word of the topic is in the
   * comment's text or in the title of what it is on (ignoring case), newest first.
   */
  commentsAbout(author: string, topic: string): Comment[] {
    const words = topic.toLowerCase().split(/\s+/)
    const b = this.bundle
    const titleOf = (key: string) =>
      b.tasks?.find((t) => t.key === key)?.title ??
      b.canvases?.find((c) => c.key === key)?.title ??
      b.projects?.find((p) => p.key === key)?.name ??
      b.okrs?.find((o) => o.key === key)?.title ??
      ''
    return (b.comments ?? [])
      .filter((c) => {
        const text = `${c.body} ${titleOf(c.on)}`.toLowerCase()
        return c.author === author && words.every((w) => text.includes(w))
      })
      .sort((a, z) => z.at.localeCompare(a.at))
  }

  /** An objective's progress from its key results. */
  progress(okr: Okr): number {
    return objectiveProgress(
      okr.key_results.map((kr) => ({
        start: kr.start ?? 0,
        target: kr.target,
        current: kr.current,
      })),
    )
  }

  /**
   * The confidence of an objective's latest check-in that gave one; of several at that moment,
   * the lowest (docs/api.md, "OKR health").
   */
  confidence(okr: Okr): number | null {
    const keys = new Set(okr.key_results.map((kr) => kr.key))
    const latest = (this.bundle.checkins ?? [])
      .filter((c) => keys.has(c.key_result) && c.confidence !== undefined && c.confidence !== null)
      .sort(
        (a, b) =>
          (b.at ?? '').localeCompare(a.at ?? '') || (a.confidence ?? 0) - (b.confidence ?? 0),
      )[0]
    return latest?.confidence ?? null
  }
}
