import type { Bundle } from '../../packages/server/src/bundle/bundle.schema.ts'
import { okrHealth } from '../../packages/server/src/graph/okrs/okr-health.ts'
import { objectiveProgress } from '../../packages/server/src/graph/okrs/okr-progress.ts'

/**
 * Judged questions over the demo workspace (`demoBundle({ today: RELEVANCE_TODAY })`), asked as
 * its owner, who may open everything. Each names the items a person asking would expect, by the
 * bundle's keys, by exact titles (every item with that title), or computed from the bundle when
 * the answer depends on generated data (statuses, assignees, dates). Written before the ranking
 * was tuned, and not edited to suit it.
 */
export interface JudgedQuestion {
  query: string
  /** Keys of the expected items, most relevant first. */
  keys?: string[]
  /** Titles of expected items; every item with the title counts. */
  titles?: string[]
  /** Expected keys computed from the bundle. */
  where?: (bundle: Bundle) => string[]
}

/** The day the demo is generated for, and the clock the questions are asked at (a Sunday). */
export const RELEVANCE_TODAY = '2026-11-22'

type Task = NonNullable<Bundle['tasks']>[number]
const tasks = (bundle: Bundle, keep: (task: Task) => boolean) =>
  (bundle.tasks ?? []).filter(keep).map((task) => task.key)
// The calendar week before the one holding RELEVANCE_TODAY (weeks start on Monday, UTC).
const LAST_WEEK = { from: '2026-11-09T00:00:00Z', to: '2026-11-16T00:00:00Z' }
const THIS_WEEK = { from: '2026-11-16', to: '2026-11-22' }
const NEXT_WEEK = { from: '2026-11-23', to: '2026-11-29' }
const open = (task: Task) => task.status !== 'done'
const overdue = (task: Task) => open(task) && !!task.due && task.due < RELEVANCE_TODAY
const dueBetween = (task: Task, days: { from: string; to: string }) =>
  !!task.due && task.due >= days.from && task.due <= days.to
// The objectives of the day's quarter whose health (docs/api.md, "OKR health") is `verdict`.
const okrsWith = (bundle: Bundle, verdict: string) =>
  (bundle.okrs ?? [])
    .filter((okr) => {
      const progress = objectiveProgress(
        okr.key_results.map((kr) => ({
          start: kr.start ?? 0,
          target: kr.target,
          current: kr.current,
        })),
      )
      const health = okrHealth(
        progress,
        null,
        okr.session,
        new Date(`${RELEVANCE_TODAY}T12:00:00Z`),
      )
      return health?.verdict === verdict
    })
    .map((okr) => okr.key)
const updatedLastWeek = (task: Task) => {
  const at = task.completed_at ?? task.created_at ?? ''
  return at >= LAST_WEEK.from && at < LAST_WEEK.to
}

/** The judged set. */
export const QUESTIONS: JudgedQuestion[] = [
  {
    query: 'what is blocking the checkout redesign?',
    where: (b) => tasks(b, (t) => t.project === 'checkout' && t.status === 'blocked'),
  },
  { query: 'status of the data platform migration', keys: ['dataplat', 'dataplat-c1'] },
  { query: 'post mortem for the outage', keys: ['outage-c1', 'outage-t2', 'outage'] },
  { query: 'acessibility audit', keys: ['a11y', 'a11y-c1'] },
  { query: 'tokenize cards on the client', keys: ['checkout-t4-s1'] },
  { query: 'payment provider comparison', keys: ['checkout-c2'] },
  { query: 'how do we handle declined cards', keys: ['checkout-t7'] },
  { query: 'apple pay', keys: ['checkout-t5'] },
  { query: 'offline sync design', keys: ['mobile4-c2', 'mobile4-t3', 'mobile4-t2'] },
  { query: 'where are we on the mobile app 4.0 release', keys: ['mobile4', 'mobile4-c1'] },
  { query: 'dark mode', titles: ['Dark mode for every screen'] },
  { query: 'crash free sessions', keys: ['mobile4-t8', 'okr-mobile'] },
  {
    query: 'push reminders',
    keys: ['mobile4-t6', 'mobile4-t6-s1', 'mobile4-t6-s2'],
  },
  { query: 'beta program customers', keys: ['mobile4-t9', 'mobile4-t9-s1'] },
  { query: 'calendar week view', keys: ['mobile4-t4'] },
  { query: 'csv import wizard', keys: ['onboarding-t3'] },
  { query: 'welcome email sequence', keys: ['onboarding-t5'] },
  { query: 'onboarding research', keys: ['onboarding-c1', 'onboarding'] },
  { query: 'how is activation measured', keys: ['onboarding-c2', 'okr-activation'] },
  { query: 'typo tolerance', keys: ['search-t3', 'search'] },
  { query: 'search relevance test set', keys: ['search-t2', 'search-c1', 'search'] },
  { query: 'nightly batch jobs', keys: ['dataplat-t1', 'dataplat', 'okr-reliability'] },
  { query: 'migrate finance dashboards', keys: ['dataplat-t5'] },
  { query: 'new warehouse in staging', keys: ['dataplat-t2'] },
  { query: 'pricing options', keys: ['pricing-c1', 'pricing'] },
  { query: 'per location pricing', keys: ['pricing-t1', 'pricing', 'pricing-c1', 'roadmap'] },
  { query: 'soc 2 audit evidence', keys: ['soc2-c1', 'soc2', 'soc2-t7'] },
  { query: 'laptop encryption', keys: ['soc2-t7'] },
  { query: 'penetration test findings', keys: ['soc2-t9', 'soc2-t9-s1'] },
  { query: 'brand refresh logo', keys: ['brand-t2', 'brand', 'brand-c2'] },
  { query: 'colour palette', keys: ['brand-t3'] },
  { query: 'color contrast', keys: ['a11y-t4', 'brand-t3'] },
  { query: 'screen reader', keys: ['a11y-t2'] },
  { query: 'hiring senior engineers', keys: ['hiring'] },
  { query: 'interview loop', keys: ['hiring-c1'] },
  { query: 'replication lag alert', keys: ['outage-t3'] },
  { query: 'failover', keys: ['outage-t4', 'outage-c1', 'outage'] },
  { query: 'customer advisory board', keys: ['cab', 'cab-c1'] },
  { query: 'team handbook', keys: ['handbook'] },
  { query: 'roadmap for next year', keys: ['roadmap', 'cab-t2'] },
  {
    query: 'blocked tasks in checkout',
    where: (b) => tasks(b, (t) => t.project === 'checkout' && t.status === 'blocked'),
  },
  {
    query: 'my overdue tasks',
    where: (b) =>
      tasks(
        b,
        (t) => t.assignee === 'ada' && t.status !== 'done' && !!t.due && t.due < RELEVANCE_TODAY,
      ),
  },
  {
    query: 'done last week',
    where: (b) => tasks(b, (t) => t.status === 'done' && updatedLastWeek(t)),
  },
  { query: 'localize prices', keys: ['checkout-t8'] },
  { query: 'rollback plan', keys: ['checkout-t11'] },
  { query: 'load test the payment endpoints', keys: ['checkout-t12'] },
  { query: 'chekout redesign', keys: ['checkout', 'checkout-c1'] },
  { query: 'onbording templates', keys: ['onboarding-t2'] },
  { query: 'what did we decide about grandfathering', keys: ['pricing-t3'] },
  { query: 'board deck', keys: ['pricing-c2'] },
  // Written after the first 51, before any of their classes was worked on: names as filters,
  // type words and states, date phrases, split and joined words, projects by theme, people and
  // teams as hits.
  {
    query: "Kemi Adeyemi's tasks",
    where: (b) => tasks(b, (t) => open(t) && t.assignee === 'kemi'),
  },
  {
    query: 'tasks assigned to Jonas Weber',
    where: (b) => tasks(b, (t) => open(t) && t.assignee === 'jonas'),
  },
  {
    query: 'assignee:"Elena Petrova" in progress',
    where: (b) => tasks(b, (t) => t.status === 'in_progress' && t.assignee === 'elena'),
  },
  {
    query: 'what is Farid Haddad working on',
    where: (b) => tasks(b, (t) => t.status === 'in_progress' && t.assignee === 'farid'),
  },
  {
    query: "Maya's overdue tasks",
    where: (b) => tasks(b, (t) => overdue(t) && t.assignee === 'maya'),
  },
  {
    query: 'blocked tasks for Jonas',
    where: (b) => tasks(b, (t) => t.status === 'blocked' && t.assignee === 'jonas'),
  },
  {
    query: 'what is Ben Lindqvist doing',
    where: (b) => tasks(b, (t) => t.status === 'in_progress' && t.assignee === 'ben'),
  },
  { query: 'which OKRs are off track', where: (b) => okrsWith(b, 'off_track') },
  { query: 'objectives at risk', where: (b) => okrsWith(b, 'at_risk') },
  {
    query: 'canvases in the checkout redesign',
    where: (b) => (b.canvases ?? []).filter((c) => c.project === 'checkout').map((c) => c.key),
  },
  {
    query: 'overdue tasks in mobile app 4.0',
    where: (b) => tasks(b, (t) => overdue(t) && t.project === 'mobile4'),
  },
  {
    query: 'done tasks in onboarding',
    where: (b) => tasks(b, (t) => t.status === 'done' && t.project === 'onboarding'),
  },
  {
    query: 'in progress work in the data platform migration',
    where: (b) => tasks(b, (t) => t.status === 'in_progress' && t.project === 'dataplat'),
  },
  { query: 'blocked', where: (b) => tasks(b, (t) => t.status === 'blocked') },
  {
    query: 'tasks due this week',
    where: (b) => tasks(b, (t) => open(t) && dueBetween(t, THIS_WEEK)),
  },
  {
    query: 'what is due next week',
    where: (b) => tasks(b, (t) => open(t) && dueBetween(t, NEXT_WEEK)),
  },
  {
    query: 'tasks due today',
    where: (b) => tasks(b, (t) => open(t) && t.due === RELEVANCE_TODAY),
  },
  { query: 'due tomorrow', where: (b) => tasks(b, (t) => open(t) && t.due === '2026-11-23') },
  { query: 'overdue', where: (b) => tasks(b, overdue) },
  { query: 'roll back plan', keys: ['checkout-t11'] },
  { query: 'check out redesign', keys: ['checkout', 'checkout-c1'] },
  { query: 'postmortem', keys: ['outage-c1', 'outage-t2', 'outage'] },
  { query: 'road map', keys: ['roadmap', 'cab-t2'] },
  { query: 'hand book', keys: ['handbook'] },
  { query: 'drop off points', keys: ['checkout-t1'] },
  { query: 'payments', keys: ['checkout', 'checkout-c2', 'checkout-t3', 'checkout-t4'] },
  { query: 'mobile release', keys: ['mobile4', 'mobile4-c1', 'mobile4-t10'] },
  { query: 'incident', keys: ['outage', 'outage-c1', 'outage-t1'] },
  { query: 'Kemi Adeyemi', keys: ['kemi'] },
  { query: 'Jonas', keys: ['jonas'] },
  { query: 'platform team', keys: ['platform'] },
  { query: 'engineering web', keys: ['web'] },
  { query: 'customer support team', keys: ['support'] },
]
