import type { Bundle } from '../../packages/server/src/bundle/bundle.schema.ts'
import { okrHealth } from '../../packages/server/src/graph/okrs/okr-health.ts'
import { objectiveProgress } from '../../packages/server/src/graph/okrs/okr-progress.ts'

type Task = NonNullable<Bundle['tasks']>[number]
type Okr = NonNullable<Bundle['okrs']>[number]

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
    const now = new Date(`${this.today}T12:00:00Z`)
    return (this.bundle.okrs ?? []).filter((okr) => {
      if (!filter(okr)) return false
      const health = okrHealth(this.progress(okr), this.confidence(okr), okr.session, now)
      return health?.verdict === 'at_risk' || health?.verdict === 'off_track'
    })
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

  /** The confidence of an objective's latest check-in that gave one. */
  confidence(okr: Okr): number | null {
    const keys = new Set(okr.key_results.map((kr) => kr.key))
    const latest = (this.bundle.checkins ?? [])
      .filter((c) => keys.has(c.key_result) && c.confidence !== undefined && c.confidence !== null)
      .sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''))[0]
    return latest?.confidence ?? null
  }
}
