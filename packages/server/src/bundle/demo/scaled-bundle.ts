import type { Bundle } from '../bundle.schema.ts'
import { Random } from './random.ts'

/** Options of the benchmark generator. */
export interface ScaledOptions {
  /** About how many searchable items (tasks, comments, canvases, objectives, projects). */
  scale: number
  seed?: string | number
  today?: string
}

/** The read scopes every generated key holds. */
export const READ_SCOPES = [
  'workspace:read',
  'people:read',
  'project:read',
  'canvas:read',
  'task:read',
  'okr:read',
  'comment:read',
  'activity:read',
]
/** The write scopes of the generated keys that write. */
export const WRITE_SCOPES = ['task:write', 'comment:write', 'okr:checkin', 'canvas:write']
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ra',
  'ven',
  'tor',
  'sil',
  'dun',
  'pra',
  'qui',
  'zel',
  'mor',
  'fen',
  'gal',
  'bri',
  'cho',
  'nad',
  'wex',
  'yul',
  'hes',
]
const HEAD_WORDS = [
  'schedule',
  'shift',
  'release',
  'customer',
  'mobile',
  'checkout',
  'search',
  'billing',
  'onboarding',
  'report',
  'export',
  'sync',
  'calendar',
  'reminder',
  'payroll',
  'location',
  'invoice',
  'dashboard',
  'migration',
  'review',
  'design',
  'api',
  'bug',
  'launch',
  'metric',
  'import',
  'template',
  'permission',
  'audit',
  'incident',
  'pricing',
  'team',
  'budget',
  'roadmap',
  'beta',
  'offline',
]

/**
 * A large synthetic workspace for benchmarks: about `scale` searchable items with Zipf-distributed
 * words (a few very common ones, a long tail of rare ones), 30 % private projects, guests, teams,
 * subtasks and threads. Deterministic for a seed.
 */
export function scaledBundle({ scale, seed = 1, today = '2026-11-22' }: ScaledOptions): Bundle {
  const random = new Random(`scaled:${seed}`)
  const now = new Date(`${today}T09:00:00.000Z`).getTime()
  // The tail grows with the scale so that every scale has genuinely rare words (a few items each)
  // next to very common ones; distinct words, so a tail word's rarity is its own.
  const vocabulary = new Set(HEAD_WORDS)
  const vocabularySize = Math.max(5000, Math.round(scale / 4))
  while (vocabulary.size < vocabularySize) {
    vocabulary.add(Array.from({ length: random.int(2, 5) }, () => random.pick(SYLLABLES)).join(''))
  }
  const ranked = [...vocabulary]
  const words = (min: number, max: number) =>
    Array.from({ length: random.int(min, max) }, () => ranked[random.zipf(ranked.length)]).join(' ')
  const title = () => {
    const text = words(3, 8)
    return text.charAt(0).toUpperCase() + text.slice(1)
  }
  const at = () => new Date(now - random.int(0, 365 * 24) * 3_600_000).toISOString()
  const clamp = (value: number, min: number, max: number) =>
    Math.max(min, Math.min(max, Math.round(value)))

  const projectCount = clamp(scale / 100, 5, 5000)
  const peopleCount = clamp(scale / 40, 30, 5000)
  const teamCount = Math.max(3, Math.round(peopleCount / 15))
  const people = Array.from({ length: peopleCount }, (_, i) => ({
    key: `u${i}`,
    name: `Person ${i}`,
    email: `u${i}@scale.example`,
    role:
      i === 0
        ? ('owner' as const)
        : i === 1
          ? ('member' as const)
          : i % 50 === 1
            ? ('admin' as const)
            : i % 33 === 2
              ? ('guest' as const)
              : ('member' as const),
  }))
  const nonGuests = people.filter((p) => p.role !== 'guest').map((p) => p.key)
  const teams = Array.from({ length: teamCount }, (_, i) => ({
    key: `team${i}`,
    name: `Team ${i}`,
    members: random.sample(nonGuests, random.int(3, 15)),
  }))
  const projectPeople: string[][] = []
  const projects = Array.from({ length: projectCount }, (_, i) => {
    const memberTeams = random.sample(teams, random.int(0, 2))
    const direct = random.sample(
      people.map((p) => p.key),
      random.int(2, 10),
    )
    projectPeople.push([...new Set([...direct, ...memberTeams.flatMap((t) => t.members)])])
    return {
      key: `p${i}`,
      name: title(),
      description: words(15, 40),
      status: random.pick(['planned', 'active', 'active', 'paused', 'completed'] as const),
      visibility: random.chance(0.3) ? ('private' as const) : ('workspace' as const),
      owner: random.pick(nonGuests),
      members: [
        ...memberTeams.map((t) => ({ team: t.key })),
        ...direct.map((person) => ({ person })),
      ],
      created_at: at(),
    }
  })

  // u1 is a "power user": a member of up to 300 private projects, the worst case for the ACL path.
  for (const project of projects.filter((p) => p.visibility === 'private').slice(0, 300)) {
    if (!project.members.some((m) => 'person' in m && m.person === 'u1'))
      project.members.push({ person: 'u1' })
  }

  const rest = Math.max(0, scale - projectCount)
  const tasks: NonNullable<Bundle['tasks']> = []
  const projectTasks: string[][] = projects.map(() => [])
  for (let i = 0; i < Math.round(rest * 0.65); i++) {
    const p = random.chance(0.92) ? random.int(0, projectCount - 1) : -1
    const members = p >= 0 ? (projectPeople[p] as string[]) : nonGuests
    const siblings = p >= 0 ? (projectTasks[p] as string[]) : []
    const parent = siblings.length > 0 && random.chance(0.2) ? random.pick(siblings) : null
    const status = random.pick(['todo', 'in_progress', 'blocked', 'done'] as const)
    tasks.push({
      key: `t${i}`,
      title: title(),
      description: words(15, 40),
      status,
      due: random.chance(0.6) ? at().slice(0, 10) : null,
      project: p >= 0 ? `p${p}` : null,
      parent,
      assignee: random.chance(0.8) ? random.pick(members) : null,
      creator: random.pick(members),
      created_at: at(),
    })
    if (p >= 0 && !parent) siblings.push(`t${i}`)
  }
  const canvases = Array.from({ length: Math.round(rest * 0.1) }, (_, i) => {
    const p = random.int(0, projectCount - 1)
    const isPrivate = random.chance(0.2)
    return {
      key: `c${i}`,
      title: title(),
      summary: words(15, 40),
      project: `p${p}`,
      visibility: isPrivate ? ('private' as const) : ('project' as const),
      owner: random.pick(nonGuests),
      shared_with: isPrivate ? random.sample(nonGuests, random.int(1, 3)) : [],
      links: random.sample(projectTasks[p] as string[], random.int(0, 3)),
      created_at: at(),
    }
  })
  for (const canvas of canvases)
    canvas.shared_with = canvas.shared_with.filter((key) => key !== canvas.owner)
  const okrs = Array.from({ length: Math.round(rest * 0.05) }, (_, i) => ({
    key: `o${i}`,
    title: title(),
    session: random.pick(['2026-Q3', '2026-Q4', '2027-Q1']),
    owner: random.pick(nonGuests),
    team: random.chance(0.5) ? random.pick(teams).key : null,
    project: random.chance(0.5) ? `p${random.int(0, projectCount - 1)}` : null,
    visibility: random.chance(0.2) ? ('private' as const) : ('workspace' as const),
    key_results: Array.from({ length: random.int(1, 3) }, (_, j) => ({
      key: `o${i}kr${j}`,
      title: title(),
      target: 100,
      current: random.int(0, 100),
      unit: '%',
    })),
    created_at: at(),
  }))
  const targets = [...tasks.map((t) => t.key), ...canvases.map((c) => c.key)]
  const comments: NonNullable<Bundle['comments']> = []
  const threadOf = new Map<string, string>()
  for (let i = 0; i < Math.round(rest * 0.2) && targets.length > 0; i++) {
    const on = random.pick(targets)
    const root = threadOf.get(on)
    const reply = root !== undefined && random.chance(0.3)
    comments.push({
      key: `m${i}`,
      on,
      author: random.pick(nonGuests),
      body: words(5, 30),
      parent: reply ? root : null,
      at: at(),
    })
    if (!root) threadOf.set(on, `m${i}`)
  }
  return {
    format: 'workgraph.bundle/v1',
    workspace: { key: 'scale', name: `Scale ${scale}`, plan: 'enterprise' },
    people,
    teams,
    projects,
    canvases,
    tasks,
    okrs,
    comments,
    api_keys: [
      { key: 'owner-key', person: 'u0', scopes: [...READ_SCOPES, ...WRITE_SCOPES] },
      { key: 'power-key', person: 'u1', scopes: [...READ_SCOPES, ...WRITE_SCOPES] },
      { key: 'member-key', person: 'u5', scopes: [...READ_SCOPES, ...WRITE_SCOPES] },
      { key: 'guest-key', person: 'u2', scopes: READ_SCOPES },
    ],
  }
}
