import fc from 'fast-check'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import { ALL_READ_SCOPES } from './bundles.ts'

const ROLES = ['owner', 'admin', 'member', 'member', 'guest', 'guest'] as const
// Few distinct times, so lists must break ties by id.
const TIMES = ['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z']

/** Distinctive words that both text-search dictionaries keep exactly as they are. */
export const VOCABULARY = [
  'zorb',
  'quill',
  'marrow',
  'fennel',
  'glint',
  'sprocket',
  'tundra',
  'wicket',
]

const words = fc.array(fc.nat({ max: VOCABULARY.length - 1 }), { maxLength: 3 })
const say = (indexes: number[]) => indexes.map((i) => VOCABULARY[i]).join(' ')
const principalRef = fc.record({
  kind: fc.constantFrom('person', 'team', 'integration'),
  i: fc.nat(),
})
const optionalIndex = fc.option(fc.nat(), { nil: null })

/** The random choices behind a small workspace; indexes are taken modulo what exists. */
const shape = fc.record({
  roles: fc.array(fc.constantFrom(...ROLES), { minLength: 2, maxLength: 7 }),
  teams: fc.array(fc.array(fc.nat(), { maxLength: 4 }), { maxLength: 3 }),
  integrations: fc.nat({ max: 2 }),
  projects: fc.array(
    fc.record({
      private: fc.boolean(),
      owner: fc.nat(),
      members: fc.array(principalRef, { maxLength: 4 }),
      time: fc.nat(),
      title: words,
      body: words,
    }),
    { minLength: 1, maxLength: 4 },
  ),
  canvases: fc.array(
    fc.record({
      project: optionalIndex,
      private: fc.boolean(),
      owner: fc.nat(),
      shares: fc.array(principalRef, { maxLength: 3 }),
      links: fc.array(fc.nat(), { maxLength: 3 }),
      time: fc.nat(),
      title: words,
      body: words,
    }),
    { maxLength: 4 },
  ),
  tasks: fc.array(
    fc.record({
      project: optionalIndex,
      parent: optionalIndex,
      assignee: optionalIndex,
      creator: fc.nat(),
      byIntegration: fc.boolean(),
      canvas: optionalIndex,
      time: fc.nat(),
      title: words,
      body: words,
      done: fc.boolean(),
      due: fc.option(fc.nat({ max: 60 }), { nil: null }),
    }),
    { maxLength: 8 },
  ),
  okrs: fc.array(
    fc.record({
      private: fc.boolean(),
      owner: fc.nat(),
      team: optionalIndex,
      project: optionalIndex,
      time: fc.nat(),
      title: words,
      body: words,
    }),
    { maxLength: 3 },
  ),
  comments: fc.array(
    fc.record({ on: fc.nat(), author: fc.nat(), reply: fc.boolean(), body: words }),
    { maxLength: 6 },
  ),
})

/** A random small workspace as a valid bundle, with a read token for every principal. */
export function worldArbitrary(name = 'w'): fc.Arbitrary<Bundle> {
  return shape.map((s) => buildWorld(name, s))
}

function buildWorld(
  name: string,
  s: typeof shape extends fc.Arbitrary<infer T> ? T : never,
): Bundle {
  const pick = <T>(list: readonly T[], i: number | null): T | null =>
    i === null || list.length === 0 ? null : (list[i % list.length] as T)
  const time = (i: number) => TIMES[i % TIMES.length] as string
  const people = s.roles.map((role, i) => ({
    key: `${name}-u${i}`,
    name: `Person ${i}`,
    email: `${name}-u${i}@example.test`,
    role,
  }))
  const personKeys = people.map((p) => p.key)
  const integrations = Array.from({ length: s.integrations }, (_, i) => ({
    key: `${name}-i${i}`,
    name: `Integration ${i}`,
  }))
  const teams = s.teams.map((members, i) => ({
    key: `${name}-g${i}`,
    name: `Team ${i}`,
    members: [...new Set(members.map((m) => pick(personKeys, m) as string))],
  }))
  const principalOf = (ref: { kind: string; i: number }) => {
    const list =
      ref.kind === 'person'
        ? personKeys
        : ref.kind === 'team'
          ? teams.map((t) => t.key)
          : integrations.map((i) => i.key)
    const key = pick(list, ref.i)
    return key
      ? ({ [ref.kind]: key } as { person: string } | { team: string } | { integration: string })
      : null
  }
  const uniquePrincipals = (refs: { kind: string; i: number }[]) => {
    const seen = new Set<string>()
    return refs.map(principalOf).filter((ref): ref is NonNullable<typeof ref> => {
      const key = ref && Object.values(ref)[0]
      if (!key || seen.has(key)) return false
      seen.add(key)
      return true
    })
  }
  const projects = s.projects.map((p, i) => ({
    key: `${name}-p${i}`,
    name: `Project ${i} ${say(p.title)}`.trim(),
    description: say(p.body),
    status: 'active' as const,
    visibility: p.private ? ('private' as const) : ('workspace' as const),
    owner: pick(personKeys, p.owner) as string,
    members: uniquePrincipals(p.members),
    created_at: time(p.time),
  }))
  const projectKeys = projects.map((p) => p.key)
  const tasks: NonNullable<Bundle['tasks']> = []
  for (const [i, t] of s.tasks.entries()) {
    const parent = t.parent !== null && i > 0 ? tasks[t.parent % i] : undefined
    const actors =
      t.byIntegration && integrations.length > 0 ? integrations.map((x) => x.key) : personKeys
    tasks.push({
      key: `${name}-t${i}`,
      title: `Task ${i} ${say(t.title)}`.trim(),
      description: say(t.body),
      status: t.done ? 'done' : 'todo',
      due: t.due === null ? null : `2026-11-${String(1 + (t.due % 28)).padStart(2, '0')}`,
      project: parent ? (parent.project ?? null) : pick(projectKeys, t.project),
      parent: parent?.key ?? null,
      assignee: pick(personKeys, t.assignee),
      creator: pick(actors, t.creator) as string,
      created_at: time(t.time),
    })
  }
  const canvases = s.canvases.map((c, i) => ({
    key: `${name}-c${i}`,
    title: `Canvas ${i} ${say(c.title)}`.trim(),
    summary: say(c.body),
    project: pick(projectKeys, c.project),
    visibility: c.private ? ('private' as const) : ('project' as const),
    owner: pick(personKeys, c.owner) as string,
    shared_with: uniquePrincipals(c.shares),
    links: [] as string[],
    created_at: time(c.time),
  }))
  const linkable = [...projectKeys, ...canvases.map((c) => c.key), ...tasks.map((t) => t.key)]
  for (const [i, c] of s.canvases.entries()) {
    const canvas = canvases[i] as (typeof canvases)[number]
    canvas.links = [...new Set(c.links.map((l) => pick(linkable, l) as string))].filter(
      (key) => key !== canvas.key,
    )
  }
  for (const [i, t] of s.tasks.entries())
    (tasks[i] as (typeof tasks)[number]).canvas = pick(
      canvases.map((c) => c.key),
      t.canvas,
    )
  const okrs = s.okrs.map((o, i) => ({
    key: `${name}-o${i}`,
    title: `Objective ${i} ${say(o.title)}`.trim(),
    session: '2026-Q4',
    owner: pick(personKeys, o.owner) as string,
    team: pick(
      teams.map((t) => t.key),
      o.team,
    ),
    project: pick(projectKeys, o.project),
    visibility: o.private ? ('private' as const) : ('workspace' as const),
    key_results: [
      { key: `${name}-o${i}-kr`, title: `Result ${say(o.body)}`.trim(), target: 10, current: 3 },
    ],
    created_at: time(o.time),
  }))
  const commentable = [...linkable, ...okrs.map((o) => o.key)]
  const comments: NonNullable<Bundle['comments']> = []
  for (const [i, c] of s.comments.entries()) {
    const on = pick(commentable, c.on) as string
    const root = comments.find((x) => x.on === on && !x.parent)
    comments.push({
      key: `${name}-m${i}`,
      on,
      author: pick(personKeys, c.author) as string,
      body: `Comment ${i} ${say(c.body)}`.trim(),
      parent: c.reply && root ? root.key : null,
      at: `2026-02-0${1 + (i % 9)}T00:00:00Z`,
    })
  }
  return {
    format: 'workgraph.bundle/v1',
    workspace: { key: name, name: `World ${name}` },
    people,
    teams,
    integrations,
    projects,
    canvases,
    tasks,
    okrs,
    comments,
    api_keys: people.map((p) => ({ key: `${p.key}-key`, person: p.key, scopes: ALL_READ_SCOPES })),
    workspace_tokens: integrations.map((i) => ({
      key: `${i.key}-key`,
      integration: i.key,
      scopes: ALL_READ_SCOPES,
    })),
  }
}
