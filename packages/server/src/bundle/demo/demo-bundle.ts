import type { Bundle } from '../bundle.schema.ts'
import {
  BUG_TITLES,
  COMMENT_THREADS,
  DEMO_OKRS,
  DESCRIPTION_SENTENCES,
  GENERIC_SUBTASKS,
  PERSONAL_TASKS,
} from './demo-pools.ts'
import { DEMO_PROJECTS } from './demo-projects.ts'
import { DEMO_PEOPLE, DEMO_TEAMS } from './demo-team.ts'
import { Random } from './random.ts'

/** Options of the demo generator. */
export interface DemoOptions {
  seed?: string | number
  /** The day the demo is "today" (YYYY-MM-DD): due dates and history are placed around it. */
  today: string
}

/** The password of the demo's sign-in accounts (Ada, owner; Elena, member; Noor, guest). */
export const DEMO_PASSWORD = 'orbit-demo-password'

type Tasks = NonNullable<Bundle['tasks']>
type Comments = NonNullable<Bundle['comments']>

/**
 * The demo workspace: a believable product team with public and private projects, canvases,
 * a few hundred tasks with subtasks and due dates, OKRs with check-ins and comment threads.
 * The same seed and day give the same bundle.
 */
export function demoBundle({ seed = 'orbit', today }: DemoOptions): Bundle {
  const random = new Random(seed)
  const now = new Date(`${today}T09:00:00.000Z`)
  const daysAgo = (min: number, max: number) =>
    new Date(now.getTime() - random.int(min * 24, max * 24) * 3_600_000).toISOString()
  const dayOffset = (days: number) =>
    new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10)
  const teamMembers = (team: string) =>
    DEMO_PEOPLE.filter((p) => p.teams.includes(team)).map((p) => p.key)
  const membersOf = (key: string) => {
    const project = DEMO_PROJECTS.find((p) => p.key === key)
    return project
      ? [...new Set([project.owner, ...project.people, ...project.teams.flatMap(teamMembers)])]
      : []
  }
  const nonGuests = DEMO_PEOPLE.filter((p) => p.role !== 'guest').map((p) => p.key)
  const describe = () => random.sample(DESCRIPTION_SENTENCES, random.int(1, 3)).join(' ')

  const tasks: Tasks = []
  const addTask = (
    key: string,
    title: string,
    project: string | null,
    people: string[],
    status: Tasks[number]['status'],
    parent: string | null = null,
  ) => {
    const created = daysAgo(5, 80)
    tasks.push({
      key,
      title,
      description: random.chance(0.7) ? describe() : '',
      status,
      due: random.chance(0.75) ? dayOffset(random.int(-20, 45)) : null,
      project,
      parent,
      assignee: random.chance(0.85) ? random.pick(people) : null,
      creator: random.pick(people),
      created_at: created,
      ...(status === 'done'
        ? {
            completed_at: new Date(
              Math.min(now.getTime(), new Date(created).getTime() + random.int(1, 20) * 86_400_000),
            ).toISOString(),
          }
        : {}),
    })
  }
  const statusFor = (projectStatus: string): Tasks[number]['status'] => {
    if (projectStatus === 'completed' || projectStatus === 'archived') return 'done'
    if (projectStatus === 'planned') return random.chance(0.85) ? 'todo' : 'in_progress'
    if (projectStatus === 'paused') return random.pick(['todo', 'todo', 'blocked', 'done'] as const)
    return random.pick([
      'todo',
      'todo',
      'in_progress',
      'in_progress',
      'blocked',
      'done',
      'done',
    ] as const)
  }

  const canvases: NonNullable<Bundle['canvases']> = []
  for (const project of DEMO_PROJECTS) {
    const people = membersOf(project.key)
    project.tasks.forEach((title, i) => {
      const key = `${project.key}-t${i + 1}`
      addTask(key, title, project.key, people, statusFor(project.status))
      const subtasks =
        project.subtasks[i] ??
        (random.chance(0.35) ? random.sample(GENERIC_SUBTASKS, random.int(1, 3)) : [])
      for (const [j, sub] of subtasks.entries()) {
        addTask(`${key}-s${j + 1}`, sub, project.key, people, statusFor(project.status), key)
      }
    })
    project.canvases.forEach((canvas, i) => {
      const projectTasks = tasks.filter((t) => t.project === project.key && !t.parent)
      const owner = i === 0 ? project.owner : random.pick(people)
      canvases.push({
        key: `${project.key}-c${i + 1}`,
        title: canvas.title,
        summary: canvas.summary,
        project: project.key,
        visibility: canvas.private ? 'private' : 'project',
        owner,
        shared_with: canvas.private
          ? random.sample(
              people.filter((p) => p !== owner),
              2,
            )
          : [],
        links: random.sample(projectTasks, random.int(2, 4)).map((t) => t.key),
        created_at: daysAgo(30, 90),
      })
    })
  }
  canvases.push(
    {
      key: 'handbook',
      title: 'Team handbook',
      summary: 'How we work: rituals, decision records, on-call, and where to find things.',
      project: null,
      visibility: 'project',
      owner: 'chen',
      links: ['mobile4', 'checkout'],
      created_at: daysAgo(60, 120),
    },
    {
      key: 'roadmap',
      title: 'Roadmap H1 2027',
      summary:
        'The bets for the first half of 2027: per-location pricing, offline mobile, and payroll integrations.',
      project: null,
      visibility: 'private',
      owner: 'ada',
      shared_with: [{ team: 'leadership' }, { person: 'elena' }],
      links: ['pricing', 'mobile4'],
      created_at: daysAgo(10, 40),
    },
  )
  for (const canvas of canvases) {
    for (const link of canvas.links ?? []) {
      const task = tasks.find((t) => t.key === link)
      if (task && !task.canvas && random.chance(0.6)) task.canvas = canvas.key
    }
  }
  const active = DEMO_PROJECTS.filter((p) => p.status === 'active' && p.visibility === 'workspace')
  for (const platform of ['web', 'iOS', 'Android']) {
    BUG_TITLES.forEach((title, i) => {
      if (!random.chance(0.5)) return
      const project = random.pick(active)
      addTask(
        `bug-${platform}-${i + 1}`,
        `${title} (${platform})`,
        project.key,
        membersOf(project.key),
        random.pick(['todo', 'in_progress', 'done'] as const),
      )
    })
  }
  for (let round = 0; round < 4; round++) {
    PERSONAL_TASKS.forEach((title, i) => {
      if (!random.chance(0.6)) return
      const owner = random.pick(nonGuests)
      addTask(
        `todo-${round}-${i + 1}`,
        title,
        null,
        [owner],
        random.pick(['todo', 'done'] as const),
      )
    })
  }

  const okrs: NonNullable<Bundle['okrs']> = []
  const checkins: NonNullable<Bundle['checkins']> = []
  for (const o of DEMO_OKRS) {
    const keyResults = o.krs.map(([title, start, target, unit], i) => {
      const current =
        Math.round((start + ((target - start) * random.int(20, 85)) / 100) * 100) / 100
      return { key: `${o.key}-kr${i + 1}`, title, start, target, current, unit }
    })
    okrs.push({
      key: o.key,
      title: o.title,
      session: '2026-Q4',
      owner: o.owner,
      team: o.team,
      project: o.project,
      visibility: o.visibility,
      key_results: keyResults,
      created_at: daysAgo(50, 55),
    })
    for (const kr of keyResults) {
      for (let week = 6; week >= 1; week--) {
        const value =
          Math.round((kr.start + ((kr.current - kr.start) * (7 - week)) / 6) * 100) / 100
        checkins.push({
          key: `${kr.key}-w${week}`,
          key_result: kr.key,
          author: o.owner,
          value,
          confidence: random.int(4, 9) / 10,
          note: week === 1 ? 'On track; see the project canvas for details.' : '',
          at: new Date(now.getTime() - week * 7 * 86_400_000).toISOString(),
        })
      }
    }
  }

  const comments: Comments = []
  const targets = [
    ...tasks
      .filter((t) => t.project && !t.parent)
      .map((t) => ({ key: t.key, project: t.project as string })),
    ...canvases
      .filter((c) => c.project && c.visibility === 'project')
      .map((c) => ({ key: c.key, project: c.project as string })),
  ]
  random.sample(targets, 70).forEach((target, i) => {
    const thread = random.pick(COMMENT_THREADS)
    const people = membersOf(target.project)
    let parent: string | null = null
    let time = new Date(daysAgo(1, 30)).getTime()
    thread.forEach((body, j) => {
      const key = `thread-${i + 1}-${j + 1}`
      comments.push({
        key,
        on: target.key,
        author: random.pick(people),
        body,
        parent,
        at: new Date(time).toISOString(),
      })
      parent = parent ?? key
      time += random.int(1, 30) * 3_600_000
    })
  })

  return {
    format: 'workgraph.bundle/v1',
    workspace: { key: 'orbit', name: 'Orbit', plan: 'business' },
    people: DEMO_PEOPLE.map((p) => ({
      key: p.key,
      name: p.name,
      email: `${p.key}@${p.domain ?? 'orbit.example'}`,
      role: p.role,
      ...(['ada', 'elena', 'noor'].includes(p.key) ? { password: DEMO_PASSWORD } : {}),
    })),
    teams: Object.entries(DEMO_TEAMS).map(([key, name]) => ({
      key,
      name,
      members: teamMembers(key),
    })),
    integrations: [
      { key: 'release-bot', name: 'Release bot' },
      { key: 'support-sync', name: 'Support sync' },
    ],
    projects: DEMO_PROJECTS.map((p) => ({
      key: p.key,
      name: p.name,
      description: p.description,
      status: p.status,
      visibility: p.visibility,
      owner: p.owner,
      members: [
        ...p.teams.map((team) => ({ team })),
        ...[...new Set([p.owner, ...p.people])]
          .filter((person) => !p.teams.some((t) => teamMembers(t).includes(person)))
          .map((person) => ({ person })),
        ...(['checkout', 'mobile4'].includes(p.key) ? [{ integration: 'release-bot' }] : []),
      ],
      created_at: daysAgo(60, 120),
    })),
    canvases,
    tasks,
    okrs,
    checkins,
    comments,
    api_keys: [
      {
        key: 'ada-key',
        person: 'ada',
        name: 'Ada: everything',
        scopes: [
          'workspace:read',
          'people:read',
          'project:read',
          'canvas:read',
          'canvas:write',
          'task:read',
          'task:write',
          'okr:read',
          'okr:checkin',
          'comment:read',
          'comment:write',
          'activity:read',
          'webhook:manage',
          'audit:read',
        ],
      },
      {
        key: 'elena-read',
        person: 'elena',
        name: 'Elena: read only',
        scopes: [
          'workspace:read',
          'people:read',
          'project:read',
          'canvas:read',
          'task:read',
          'goal:read',
          'comment:read',
          'activity:read',
        ],
      },
      {
        key: 'noor-read',
        person: 'noor',
        name: 'Noor (guest): read only',
        scopes: ['project:read', 'canvas:read', 'task:read', 'comment:read'],
      },
    ],
    workspace_tokens: [
      {
        key: 'release-bot-token',
        integration: 'release-bot',
        name: 'Release bot',
        scopes: ['project:read', 'task:read', 'task:write', 'comment:write'],
      },
    ],
    oauth_clients: [
      {
        key: 'planner-app',
        name: 'Planner (sample app)',
        redirect_uris: ['http://127.0.0.1:9999/callback'],
        public: true,
      },
    ],
  }
}
