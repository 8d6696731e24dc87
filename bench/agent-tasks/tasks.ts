import type { DemoFacts } from './demo-facts.ts'

/*
 * Everyday tasks of an agent over the demo workspace (`demoBundle({ today: AGENT_TODAY })`),
 * each asked as a person would ask it, with the calls a competent agent makes for it written
 * down (its strategy: a later call reads what an earlier one answered, never the bundle), and
 * what a correct answer must contain, read from the data by the documented rules. Written before
 * the answers were measured, and not edited to suit them.
 */

/** A tool's answer as the agent reads it: the text, and the typed data beside it. */
export interface ToolReply {
  text: string
  // biome-ignore lint/suspicious/noExplicitAny: the strategies read the answers as JSON
  data: any
}

/** Calls a tool through the MCP client. */
export type CallTool = (tool: string, args?: Record<string, unknown>) => Promise<ToolReply>

/** What a correct answer must contain. */
export interface Expected {
  /**
   * Bundle keys of items that must be named (by title; a comment by its opening words) and cited
   * (by id or URL). Those the asker may not open are not expected (they must not be there).
   */
  items?: string[]
  /** Only the first this many of `items` the asker may open (they are in order of importance). */
  top?: number
  /** Words that must appear: names, statuses, values. */
  words?: string[]
  /** Words that must appear when their item is expected. */
  itemWords?: Record<string, string[]>
  /** At most this many tokens in every row (`[n] …` line) of a `list` answer. */
  rowTokens?: number
}

/** One task. */
export interface AgentTask {
  name: string
  ask: string
  /** The bundle key of the token asking; the owner's by default. */
  as?: 'ada-key' | 'elena-read'
  /**
   * What must have happened before the question is asked, written for real (not a dry run) as
   * the owner, with the world's ids by bundle key; not counted. The world is this run's own
   * (PGlite in memory), so every run starts from the demo's data, but the tasks after it in the
   * run would see the write: tasks with a setup come last.
   */
  setup?: (call: CallTool, ids: Record<string, string>) => Promise<void>
  strategy: (call: CallTool) => Promise<void>
  expect: (facts: DemoFacts) => Expected
}

/** The day the demo is generated for and the tasks are asked on (a Sunday). */
export const AGENT_TODAY = '2026-11-22'
const MONDAY = '2026-11-16T00:00:00Z'
/** Last week, Monday to Monday (weeks start on Monday, UTC, as search reads "last week"). */
const LAST_WEEK = { from: '2026-11-09', to: '2026-11-16' }
const OPEN = ['todo', 'in_progress', 'blocked']
/** The reassignment the `reassigned-from` task's setup makes: this task, to this person. */
const REASSIGNED = { task: 'brand-t2-s2', to: 'yuki' }

// The first search hit's id, for a strategy's next call.
async function firstHit(call: CallTool, query: string, types?: string[]): Promise<string> {
  const reply = await call('search', { query, limit: 3, ...(types ? { types } : {}) })
  const id = reply.data.results?.[0]?.id
  if (!id) throw new Error(`no hit for ${query}`)
  return id
}

// A person's id by name: search finds people by name.
async function personNamed(call: CallTool, name: string): Promise<string> {
  return firstHit(call, name, ['person'])
}

/** The task set. */
export const AGENT_TASKS: AgentTask[] = [
  {
    name: 'my-attention',
    ask: 'What needs my attention today?',
    as: 'elena-read',
    strategy: async (call) => {
      await call('workspace')
    },
    expect: (f) => ({
      items: [
        ...f.okrsBehind((o) => o.owner === 'elena'),
        ...f.attentionTasks((t) => t.assignee === 'elena'),
      ].map((x) => x.key),
      top: 3,
    }),
  },
  {
    name: 'okrs-behind',
    ask: 'Which OKRs are at risk or off track, and why?',
    strategy: async (call) => {
      await call('workspace', { for: 'workspace' })
    },
    expect: (f) => ({
      items: f.okrsBehind().map((o) => o.key),
      itemWords: Object.fromEntries(
        f.okrsBehind().map((o) => [o.key, [`${Math.round(f.progress(o) * 100)}%`]]),
      ),
    }),
  },
  {
    name: 'checkout-blockers',
    ask: 'What is blocking the checkout redesign, and who owns each blocker?',
    strategy: async (call) => {
      await call('search', { query: 'what is blocking the checkout redesign?' })
    },
    expect: (f) => {
      const blocked = f.openTasks((t) => t.project === 'checkout' && t.status === 'blocked')
      return {
        items: blocked.map((t) => t.key),
        words: blocked.flatMap((t) => (t.assignee ? [f.name(t.assignee)] : [])),
      }
    },
  },
  {
    name: 'onboarding-catch-up',
    ask: 'Catch me up on the Onboarding revamp since Monday.',
    strategy: async (call) => {
      const project = await firstHit(call, 'onboarding revamp', ['project'])
      await call('workspace', { for: project, since: MONDAY })
    },
    expect: (f) => ({
      items: [
        'onboarding',
        ...f.attentionTasks((t) => t.project === 'onboarding').map((t) => t.key),
      ],
      top: 4,
    }),
  },
  {
    name: 'follow-up',
    ask: 'Create a follow-up for "Load test the payment endpoints at 3x peak", which is overdue.',
    strategy: async (call) => {
      const task = await firstHit(call, 'load test the payment endpoints at 3x peak', ['task'])
      await call('create_task', {
        title: 'Follow up: load test the payment endpoints',
        parent_id: task,
        dry_run: true,
      })
    },
    expect: (f) => ({ items: [f.taskTitled('Load test the payment endpoints at 3x peak')] }),
  },
  {
    name: 'person-overdue',
    ask: "What are Kemi Adeyemi's overdue tasks?",
    strategy: async (call) => {
      await call('search', { query: "Kemi Adeyemi's overdue tasks" })
    },
    expect: (f) => ({
      items: f.openTasks((t) => t.assignee === 'kemi' && f.isOverdue(t)).map((t) => t.key),
    }),
  },
  {
    name: 'who-works-on-mobile',
    ask: 'Who is working on Mobile app 4.0 right now, and on what?',
    strategy: async (call) => {
      const project = await firstHit(call, 'mobile app 4.0', ['project'])
      await call('list', { type: 'task', project_id: project, status: ['in_progress'], limit: 50 })
    },
    expect: (f) => {
      const doing = f.openTasks((t) => t.project === 'mobile4' && t.status === 'in_progress')
      return {
        items: doing.map((t) => t.key),
        words: [...new Set(doing.flatMap((t) => (t.assignee ? [f.name(t.assignee)] : [])))],
      }
    },
  },
  {
    name: 'project-summary',
    ask: 'Summarize where the Data platform migration stands.',
    strategy: async (call) => {
      const project = await firstHit(call, 'data platform migration', ['project'])
      await call('fetch', { id: project })
    },
    expect: (f) => ({
      items: ['dataplat'],
      words: [
        `${f.openTasks((t) => t.project === 'dataplat' && t.status === 'blocked').length} blocked`,
      ],
    }),
  },
  {
    name: 'person-comments',
    ask: 'What has Ben Lindqvist said in comments lately?',
    strategy: async (call) => {
      const ben = await personNamed(call, 'Ben Lindqvist')
      await call('activity', { actor_id: ben, verbs: ['comment.created'], limit: 5 })
    },
    expect: (f) => ({
      items: (f.bundle.comments ?? [])
        .filter((c) => c.author === 'ben')
        .sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''))
        .map((c) => c.key),
      top: 3,
    }),
  },
  {
    name: 'checkin',
    ask: 'Log a check-in of 12.9 for the trial-to-paid conversion key result, confidence 0.8.',
    strategy: async (call) => {
      const okr = await firstHit(call, 'trial to paid conversion', ['okr'])
      const summary = await call('fetch', { id: okr })
      // The key result's marker after its name in the text numbers its id among the sources.
      const marker = /“Trial to paid[^”]*” \[(\d+)\]/.exec(summary.data.text)?.[1]
      await call('okr_checkin', {
        key_result_id: summary.data.sources[Number(marker) - 1],
        value: 12.9,
        confidence: 0.8,
        dry_run: true,
      })
    },
    expect: () => ({ items: ['okr-conversion'], words: ['Trial to paid conversion'] }),
  },
  {
    name: 'project-on-track',
    ask: 'Is the Pricing change 2027 project on track?',
    strategy: async (call) => {
      const project = await firstHit(call, 'pricing change 2027', ['project'])
      await call('fetch', { id: project })
    },
    expect: () => ({ items: ['pricing'], words: ['planned'] }),
  },
  {
    name: 'incident-review',
    ask: 'What came out of the November outage incident review?',
    strategy: async (call) => {
      const project = await firstHit(call, 'november outage incident review', ['project'])
      await call('fetch', { id: project })
    },
    expect: () => ({ items: ['outage'], words: ['completed'] }),
  },
  {
    name: 'reassign',
    ask: 'Reassign "Build the payment method selector" to Maya Shapiro.',
    strategy: async (call) => {
      const task = await firstHit(call, 'build the payment method selector', ['task'])
      const maya = await personNamed(call, 'Maya Shapiro')
      await call('update_task', { task_id: task, assignee_id: maya, dry_run: true })
    },
    expect: (f) => ({
      items: [f.taskTitled('Build the payment method selector')],
      words: ['Maya Shapiro'],
    }),
  },
  {
    name: 'my-in-progress',
    ask: 'Which of my tasks are in progress?',
    as: 'elena-read',
    strategy: async (call) => {
      await call('search', { query: 'my tasks in progress' })
    },
    expect: (f) => ({
      items: f
        .openTasks((t) => t.assignee === 'elena' && t.status === 'in_progress')
        .map((t) => t.key),
    }),
  },
  {
    name: 'team-members',
    ask: 'Who is on the Platform team?',
    strategy: async (call) => {
      const teams = await call('list', { type: 'team' })
      const platform = teams.data.items.find((t: { title: string }) => t.title === 'Platform')
      await call('fetch', { id: platform.id })
    },
    expect: (f) => ({
      words: (f.bundle.teams?.find((t) => t.key === 'platform')?.members ?? []).map((p) =>
        f.name(p),
      ),
    }),
  },
  {
    name: 'task-status',
    ask: "What's the status of the dark mode work, and who has it?",
    strategy: async (call) => {
      await call('search', { query: 'dark mode' })
    },
    expect: (f) => {
      const task = f.task(f.taskTitled('Dark mode for every screen'))
      return {
        items: [task.key],
        words: [task.status, ...(task.assignee ? [f.name(task.assignee)] : [])],
      }
    },
  },
  {
    name: 'key-results',
    ask: 'Where do the key results of "Be boringly reliable" stand?',
    strategy: async (call) => {
      const okr = await firstHit(call, 'be boringly reliable', ['okr'])
      await call('fetch', { id: okr })
    },
    expect: (f) => ({
      items: ['okr-reliability'],
      words: (f.bundle.okrs?.find((o) => o.key === 'okr-reliability')?.key_results ?? []).map(
        (kr) => kr.title,
      ),
    }),
  },
  {
    name: 'mark-done',
    ask: 'Mark "Define the event schema" as done.',
    strategy: async (call) => {
      const task = await firstHit(call, 'define the event schema', ['task'])
      await call('update_task', { task_id: task, status: 'done', dry_run: true })
    },
    expect: (f) => ({ items: [f.taskTitled('Define the event schema')] }),
  },
  {
    name: 'due-this-week',
    ask: 'Which open tasks are due in the next seven days?',
    strategy: async (call) => {
      const args = {
        query: 'tasks',
        types: ['task'],
        filters: {
          status: ['todo', 'in_progress', 'blocked'],
          due_after: AGENT_TODAY,
          due_before: '2026-11-28',
        },
        limit: 20,
      }
      // Page on while the answer says there is more.
      let page = await call('search', args)
      for (let more = 0; page.data.next_cursor && more < 3; more++)
        page = await call('search', { ...args, cursor: page.data.next_cursor })
    },
    expect: (f) => ({ items: f.openTasks((t) => f.isDueSoon(t)).map((t) => t.key) }),
  },
  {
    name: 'okr-owner',
    ask: 'How is the objective about answering customers faster doing, and who owns it?',
    strategy: async (call) => {
      const okr = await firstHit(call, 'answer customers faster', ['okr'])
      await call('fetch', { id: okr })
    },
    expect: (f) => {
      const okr = f.bundle.okrs?.find((o) => o.key === 'okr-support')
      return {
        items: ['okr-support'],
        words: [f.name(okr?.owner), `${Math.round(f.progress(okr as never) * 100)}%`],
      }
    },
  },
  {
    name: 'comment',
    ask: 'Tell everyone on "Add Apple Pay and Google Pay buttons" that the review is done.',
    strategy: async (call) => {
      const task = await firstHit(call, 'add apple pay and google pay buttons', ['task'])
      await call('add_comment', { resource_id: task, body: 'The review is done.', dry_run: true })
    },
    expect: (f) => ({ items: [f.taskTitled('Add Apple Pay and Google Pay buttons')] }),
  },
  {
    name: 'team-attention',
    ask: 'What needs the attention of the Engineering — Web team?',
    strategy: async (call) => {
      const teams = await call('list', { type: 'team' })
      const web = teams.data.items.find((t: { title: string }) => t.title === 'Engineering — Web')
      await call('workspace', { for: web.id })
    },
    expect: (f) => {
      const members = new Set(f.bundle.teams?.find((t) => t.key === 'web')?.members ?? [])
      return {
        items: f.attentionTasks((t) => members.has(t.assignee ?? '')).map((t) => t.key),
        top: 2,
      }
    },
  },
  // Class 6 (issue 44): an exact fallback when the question's words are not read as meant, each
  // filter given by the name or value the tool descriptions and docs/mcp.md give it.
  {
    name: 'okrs-on-track',
    ask: 'Which objectives are on track this quarter?',
    strategy: async (call) => {
      await call('search', {
        query: 'objectives on track',
        types: ['okr'],
        filters: { health: ['on_track'] },
      })
    },
    expect: (f) => ({
      items: f.okrsWithHealth(['on_track']).map((o) => o.key),
      words: ['on track'],
    }),
  },
  {
    name: 'completed-last-week',
    ask: 'What did Quinn Taylor complete last week?',
    strategy: async (call) => {
      await call('search', {
        query: 'completed tasks',
        types: ['task'],
        filters: {
          assignee: 'Quinn Taylor',
          status: ['done'],
          completed_after: LAST_WEEK.from,
          completed_before: LAST_WEEK.to,
        },
      })
    },
    expect: (f) => ({
      items: f
        .completedBetween(LAST_WEEK.from, LAST_WEEK.to, (t) => t.assignee === 'quinn')
        .map((t) => t.key),
    }),
  },
  {
    name: 'unassigned-in-project',
    ask: 'What is unassigned in the Data platform migration?',
    strategy: async (call) => {
      const project = await firstHit(call, 'data platform migration', ['project'])
      await call('search', {
        query: 'unassigned tasks',
        types: ['task'],
        filters: { assignee: 'none', project_id: project, status: OPEN },
        limit: 20,
      })
    },
    expect: (f) => ({
      items: f.openTasks((t) => t.project === 'dataplat' && !t.assignee).map((t) => t.key),
    }),
  },
  {
    name: 'person-said-about',
    ask: 'What has Quinn Taylor said about offline sync?',
    strategy: async (call) => {
      await call('search', {
        query: 'offline sync',
        types: ['comment'],
        filters: { created_by: 'Quinn Taylor' },
      })
    },
    expect: (f) => ({ items: f.commentsAbout('quinn', 'offline sync').map((c) => c.key) }),
  },
  {
    name: 'reassign-by-name',
    ask: 'Reassign "Compare row counts daily" to Amir Tehrani.',
    strategy: async (call) => {
      const task = await firstHit(call, 'compare row counts daily', ['task'])
      await call('update_task', { task_id: task, assignee_id: 'Amir Tehrani', dry_run: true })
    },
    expect: (f) => ({ items: [f.taskTitled('Compare row counts daily')], words: [f.name('amir')] }),
  },
  {
    name: 'my-plate',
    ask: "What's on my plate?",
    as: 'elena-read',
    strategy: async (call) => {
      await call('search', {
        query: "what's on my plate",
        types: ['task'],
        filters: { assignee: 'me', status: OPEN },
        limit: 20,
      })
    },
    expect: (f) => ({ items: f.openTasks((t) => t.assignee === 'elena').map((t) => t.key) }),
  },
  // Class 7 (issue 44): the answer carries the fact the asker needs next, so no second call or
  // sum is needed for it.
  {
    name: 'project-okr-health',
    ask: 'Is the Onboarding revamp on track?',
    strategy: async (call) => {
      const project = await firstHit(call, 'onboarding revamp', ['project'])
      await call('fetch', { id: project })
    },
    expect: (f) => {
      const okrs = (f.bundle.okrs ?? []).filter((o) => o.project === 'onboarding')
      return {
        items: ['onboarding', ...okrs.map((o) => o.key)],
        itemWords: Object.fromEntries(
          okrs.map((o) => {
            const health = f.health(o)
            return [o.key, health ? [f.healthWords(health)] : []]
          }),
        ),
      }
    },
  },
  {
    name: 'subtask-assignees',
    ask: 'Who is doing the subtasks of "Build the shared sync engine"?',
    strategy: async (call) => {
      const task = await firstHit(call, 'build the shared sync engine', ['task'])
      await call('fetch', { id: task })
    },
    expect: (f) => {
      const subtasks = f.subtasks(f.taskTitled('Build the shared sync engine'))
      return {
        items: subtasks.map((t) => t.key),
        itemWords: Object.fromEntries(
          subtasks.map((t) => [t.key, t.assignee ? [f.name(t.assignee)] : ['unassigned']]),
        ),
      }
    },
  },
  {
    name: 'person-overdue-rows',
    ask: "Which of Amir Tehrani's tasks are overdue?",
    strategy: async (call) => {
      const amir = await personNamed(call, 'Amir Tehrani')
      await call('list', { type: 'task', assignee_id: amir, status: OPEN, limit: 50 })
    },
    expect: (f) => {
      const overdue = f.openTasks((t) => t.assignee === 'amir' && f.isOverdue(t))
      // A list row says a flag that is true after the fact it qualifies (docs/mcp.md).
      return {
        items: overdue.map((t) => t.key),
        itemWords: Object.fromEntries(overdue.map((t) => [t.key, [`${t.due} overdue`]])),
      }
    },
  },
  {
    name: 'open-task-rows',
    ask: 'List the open tasks of the Checkout redesign.',
    strategy: async (call) => {
      const project = await firstHit(call, 'checkout redesign', ['project'])
      const args = { type: 'task', project_id: project, status: OPEN, limit: 50 }
      // Page on while the answer says there is more.
      let page = await call('list', args)
      for (let more = 0; page.data.next_cursor && more < 3; more++)
        page = await call('list', { ...args, cursor: page.data.next_cursor })
    },
    expect: (f) => ({
      items: f.openTasks((t) => t.project === 'checkout').map((t) => t.key),
      rowTokens: 60,
    }),
  },
  // Last: its setup reassigns a task for real in this run's world (the demo has no reassignment).
  {
    name: 'reassigned-from',
    ask: 'Who was "Direction B: wordmark" reassigned to, and from whom?',
    setup: async (call, ids) => {
      await call('update_task', {
        task_id: ids[REASSIGNED.task],
        assignee_id: ids[REASSIGNED.to],
      })
    },
    strategy: async (call) => {
      const task = await firstHit(call, 'direction b: wordmark', ['task'])
      await call('activity', { resource_id: task, limit: 5 })
    },
    expect: (f) => ({
      items: [REASSIGNED.task],
      words: [f.name(f.task(REASSIGNED.task).assignee), f.name(REASSIGNED.to)],
    }),
  },
]
