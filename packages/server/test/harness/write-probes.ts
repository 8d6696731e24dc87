import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import { ID_PREFIX } from '../../src/lib/ids.ts'
import { callToolInProcess } from './mcp-inject.ts'
import type { World } from './oracle.ts'
import { client } from './test-app.ts'

/*
 * Writes as a test sends them to two worlds, or with two different ids: every write of the content
 * API over REST and as an MCP tool, real or a dry run, each naming the things it acts on by bundle
 * key, so that the same probe can be sent to any import of the world.
 */

/** The kinds of thing a write names. */
export type SlotKind =
  | 'project'
  | 'task'
  | 'canvas'
  | 'person'
  | 'team'
  | 'key_result'
  | 'comment'
  | 'okr'

/** A thing a write names: a bundle key, an id that names nothing, or the thing under test. */
export type Ref = { key: string } | { unknown: SlotKind } | { target: true }

type Arg = string | number | null | Ref | Arg[]

/** One write, ready to send to any import of a world. */
export interface WriteProbe {
  readonly label: string
  readonly transport: 'rest' | 'mcp'
  readonly dryRun: boolean
  /** REST: method and path (a Ref where the path names a resource); MCP: the tool. */
  readonly method?: 'POST' | 'PATCH'
  readonly path?: readonly (string | Ref)[]
  readonly tool?: string
  readonly args: Readonly<Record<string, Arg>>
}

/** An answer as the probe's caller got it. */
export interface ProbeAnswer {
  readonly status: number
  readonly body: string
}

const PREFIX_OF: Record<SlotKind, string> = {
  project: ID_PREFIX.project,
  task: ID_PREFIX.task,
  canvas: ID_PREFIX.canvas,
  person: ID_PREFIX.person,
  team: ID_PREFIX.team,
  key_result: ID_PREFIX.key_result,
  comment: ID_PREFIX.comment,
  okr: ID_PREFIX.okr,
}

/** An id of the kind that no workspace holds. */
export function unknownId(kind: SlotKind): string {
  return `${PREFIX_OF[kind]}_${'0'.repeat(26)}`
}

/** Sends a probe as `token`, with `ids` for bundle keys and `target` for the thing under test. */
export async function sendProbe(
  app: FastifyInstance,
  token: string,
  probe: WriteProbe,
  ids: Readonly<Record<string, string>>,
  target?: string,
  idempotencyKey?: string,
): Promise<ProbeAnswer> {
  const resolve = (arg: Arg): unknown => {
    if (arg === null || typeof arg !== 'object') return arg
    if (Array.isArray(arg)) return arg.map(resolve)
    if ('key' in arg) {
      const id = ids[arg.key]
      if (!id) throw new Error(`no id for ${arg.key}`)
      return id
    }
    if ('unknown' in arg) return unknownId(arg.unknown)
    if (!target) throw new Error(`${probe.label} names a target, and none was given`)
    return target
  }
  const args = Object.fromEntries(Object.entries(probe.args).map(([k, v]) => [k, resolve(v)]))
  if (probe.transport === 'mcp') {
    const answer = await callToolInProcess(app, token, probe.tool as string, {
      ...args,
      ...(probe.dryRun ? { dry_run: true } : {}),
      ...(idempotencyKey && !probe.dryRun ? { idempotency_key: idempotencyKey } : {}),
    })
    return { status: answer.isError ? 400 : 200, body: JSON.stringify(answer) }
  }
  const path = (probe.path ?? []).map((part) => (typeof part === 'string' ? part : resolve(part)))
  const reply = await client(app, token).send({
    method: probe.method as 'POST',
    url: `${path.join('')}${probe.dryRun ? '?dry_run=true' : ''}`,
    headers: idempotencyKey && !probe.dryRun ? { 'idempotency-key': idempotencyKey } : {},
    payload: args,
  })
  return { status: reply.status, body: reply.body }
}

const ANY_ID = new RegExp(`\\b(?:${Object.values(ID_PREFIX).join('|')})_[0-9a-z]{26}\\b`, 'g')

/**
 * An answer with every id written as what it names: a bundle key, `<workspace>`, `<target>`,
 * `<unknown>` or, for ids the write made, `<new 1>`, `<new 2>`… in order of appearance. Request
 * ids and secrets are written as their kind. Two worlds seen alike give equal normalized answers.
 */
export function normalizeAnswer(
  answer: ProbeAnswer,
  names: ReadonlyMap<string, string>,
  target?: string,
): string {
  const made = new Map<string, string>()
  const body = answer.body
    .replace(/wg_[a-z]+_[A-Za-z0-9_-]+/g, '<secret>')
    .replace(/"last4":"[^"]*"/g, '"last4":"<secret>"')
    .replace(ANY_ID, (id) => {
      if (id === target) return '<target>'
      if (id.endsWith(`_${'0'.repeat(26)}`)) return '<unknown>'
      const name = names.get(id)
      if (name) return name
      if (id.startsWith(`${ID_PREFIX.request}_`)) return '<request>'
      if (!made.has(id)) made.set(id, `<new ${made.size + 1}>`)
      return made.get(id) as string
    })
  return `${answer.status} ${body}`
}

/** The keys of a world a caller may open and may not, by the kind of thing writes name. */
export interface Sides {
  readonly open: Readonly<Record<SlotKind, readonly string[]>>
  readonly hidden: Readonly<Record<SlotKind, readonly string[]>>
}

/** What `who` may and may not open in the world, by kind. */
export function sidesOf(world: World, bundle: Bundle, who: string): Sides {
  const kinds: Record<SlotKind, string[]> = {
    project: [...world.projects.keys()],
    task: [...world.tasks.keys()],
    canvas: [...world.canvases.keys()],
    person: [...world.roles.keys()],
    team: [...world.teams.keys()],
    key_result: (bundle.okrs ?? []).flatMap((o) => o.key_results.map((kr) => kr.key)),
    comment: [...world.comments.keys()],
    okr: [...world.okrs.keys()],
  }
  const split = (open: boolean) =>
    Object.fromEntries(
      Object.entries(kinds).map(([kind, keys]) => [
        kind,
        keys.filter((key) => world.canOpen(who, key) === open),
      ]),
    ) as Record<SlotKind, string[]>
  return { open: split(true), hidden: split(false) }
}

/** One drawn write: which template, which things (indexes into what is open), how it is sent. */
export const probeChoice = fc.record({
  template: fc.nat(),
  picks: fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
  mcp: fc.boolean(),
  dryRun: fc.boolean(),
})

/** What `probeChoice` draws. */
export type ProbeChoice = typeof probeChoice extends fc.Arbitrary<infer T> ? T : never

/** One write template: its slots' kinds, and the probe given a thing for each slot. */
interface Template {
  readonly name: string
  readonly slots: readonly SlotKind[]
  /** Tools exist only for some writes; the others are REST only. */
  readonly tool?: string
  build(
    refs: readonly (Ref | null)[],
    variant: number,
  ): Omit<WriteProbe, 'label' | 'transport' | 'dryRun'>
}

const rest = (method: 'POST' | 'PATCH', ...path: (string | Ref)[]) => ({ method, path })

/** Every write of the content API, by the things it names. */
export const TEMPLATES: readonly Template[] = [
  {
    name: 'create a task',
    slots: ['project', 'task', 'canvas', 'person'],
    tool: 'create_task',
    build: ([project, parent, canvas, assignee], variant) => {
      // A subtask takes its parent's project: the two are given together only now and then.
      const subtask = parent !== null && variant % 3 === 0
      return {
        ...rest('POST', '/v1/tasks'),
        args: {
          title: 'Probe task',
          ...(project && variant % 2 === 0 && (!subtask || variant % 4 === 0)
            ? { project_id: project }
            : {}),
          ...(subtask ? { parent_id: parent } : {}),
          ...(canvas && variant % 5 === 0 ? { canvas_id: canvas } : {}),
          ...(assignee && variant % 7 !== 0 ? { assignee_id: assignee } : {}),
          ...(variant % 4 === 0 ? { due: '2026-12-24' } : {}),
        },
      }
    },
  },
  {
    name: 'reassign a task',
    slots: ['task', 'person'],
    tool: 'update_task',
    build: ([task, person]) => ({
      ...rest('PATCH', '/v1/tasks/', task as Ref),
      args: { task_id: task as Ref, assignee_id: person ?? null },
    }),
  },
  {
    name: 'change a task',
    slots: ['task'],
    tool: 'update_task',
    build: ([task], variant) => ({
      ...rest('PATCH', '/v1/tasks/', task as Ref),
      args: {
        task_id: task as Ref,
        ...[{ status: 'done' }, { due: '2027-01-05' }, { title: 'Renamed by a probe' }][
          variant % 3
        ],
      },
    }),
  },
  {
    name: 'comment',
    slots: ['task', 'comment'],
    tool: 'add_comment',
    build: ([on, parent], variant) => ({
      ...rest('POST', '/v1/comments'),
      args: {
        resource_id: on as Ref,
        body: 'A probe remark',
        ...(parent && variant % 2 === 0 ? { parent_id: parent } : {}),
      },
    }),
  },
  {
    name: 'comment on a project',
    slots: ['project'],
    tool: 'add_comment',
    build: ([on]) => ({
      ...rest('POST', '/v1/comments'),
      args: { resource_id: on as Ref, body: 'A probe remark on a project' },
    }),
  },
  {
    name: 'comment on a canvas',
    slots: ['canvas'],
    tool: 'add_comment',
    build: ([on]) => ({
      ...rest('POST', '/v1/comments'),
      args: { resource_id: on as Ref, body: 'A probe remark on a canvas' },
    }),
  },
  {
    name: 'comment on an objective',
    slots: ['okr'],
    tool: 'add_comment',
    build: ([on]) => ({
      ...rest('POST', '/v1/comments'),
      args: { resource_id: on as Ref, body: 'A probe remark on an objective' },
    }),
  },
  {
    name: 'check in',
    slots: ['key_result'],
    tool: 'okr_checkin',
    build: ([kr], variant) => ({
      ...rest('POST', '/v1/okr/checkins'),
      args: { key_result_id: kr as Ref, value: variant % 11, note: 'A probe check-in' },
    }),
  },
  {
    name: 'create a canvas',
    slots: ['project'],
    build: ([project], variant) => ({
      ...rest('POST', '/v1/canvases'),
      args: {
        title: 'Probe canvas',
        ...(project && variant % 3 !== 0 ? { project_id: project } : {}),
        visibility: variant % 2 === 0 ? 'project' : 'private',
      },
    }),
  },
  {
    name: 'link a canvas',
    slots: ['canvas', 'task', 'project'],
    build: ([canvas, task, project], variant) => ({
      ...rest('PATCH', '/v1/canvases/', canvas as Ref),
      args: (variant % 3 === 0
        ? { title: 'Retitled by a probe' }
        : { links: [task, project].filter((ref): ref is Ref => ref !== null) }) as Record<
        string,
        Arg
      >,
    }),
  },
  {
    name: 'create an objective',
    slots: ['person', 'team', 'project'],
    build: ([owner, team, project], variant) => ({
      ...rest('POST', '/v1/okrs'),
      args: {
        title: 'Probe objective',
        session: '2026-Q4',
        ...(owner && variant % 2 === 0 ? { owner_id: owner } : {}),
        ...(team && variant % 3 === 0 ? { team_id: team } : {}),
        ...(project && variant % 5 !== 0 ? { project_id: project } : {}),
        visibility: variant % 7 === 0 ? 'private' : 'workspace',
      },
    }),
  },
  {
    name: 'change an objective',
    slots: ['okr', 'person', 'team', 'project'],
    build: ([okr, owner, team, project], variant) => ({
      ...rest('PATCH', '/v1/okrs/', okr as Ref),
      args: [
        { title: 'Retitled by a probe' },
        { status: 'closed' },
        owner ? { owner_id: owner } : { session: '2027-Q1' },
        { team_id: team },
        { project_id: project },
        { visibility: 'private' },
      ][variant % 6] as Record<string, Arg>,
    }),
  },
  {
    name: 'add a key result',
    slots: ['okr'],
    build: ([okr], variant) => ({
      ...rest('POST', '/v1/okrs/', okr as Ref, '/key-results'),
      args: { title: 'Probe measure', start: 0, target: 1 + (variant % 5) },
    }),
  },
  {
    name: 'change a key result',
    slots: ['key_result'],
    build: ([kr], variant) => ({
      ...rest('PATCH', '/v1/key-results/', kr as Ref),
      args: [{ target: 77 }, { title: 'Remeasured by a probe' }, { start: 5, unit: '%' }][
        variant % 3
      ] as Record<string, Arg>,
    }),
  },
  {
    name: "change a person's role",
    slots: ['person'],
    build: ([person], variant) => ({
      ...rest('PATCH', '/v1/people/', person as Ref),
      args: { role: (['member', 'guest', 'admin', 'owner'] as const)[variant % 4] as string },
    }),
  },
  {
    name: 'deactivate or reactivate a person',
    slots: ['person'],
    build: ([person], variant) => ({
      ...rest(
        'POST',
        '/v1/people/',
        person as Ref,
        variant % 2 === 0 ? '/deactivate' : '/reactivate',
      ),
      args: {},
    }),
  },
  {
    name: 'fence a key',
    slots: ['project'],
    build: ([project]) => ({
      ...rest('POST', '/v1/api-keys'),
      args: { name: 'Probe key', scopes: ['task:read'], project_ids: [project as Ref] },
    }),
  },
]

/**
 * The probe a choice draws among what is open to the caller (an id that names nothing where
 * nothing of a kind is open), or null when the template needs a thing of a kind there is none of.
 */
export function drawnProbe(choice: ProbeChoice, open: Sides['open']): WriteProbe {
  const template = TEMPLATES[choice.template % TEMPLATES.length] as Template
  const refs = template.slots.map((kind, i): Ref => {
    const keys = open[kind]
    const pick = choice.picks[i] ?? 0
    // Now and then an id that names nothing, beside what is open.
    if (keys.length === 0 || pick % 9 === 8) return { unknown: kind }
    return { key: keys[pick % keys.length] as string }
  })
  const variant = choice.picks.reduce((sum, n) => sum + n, 0)
  const transport = choice.mcp && template.tool ? 'mcp' : 'rest'
  const built = template.build(refs, variant)
  return {
    ...built,
    ...(transport === 'mcp' ? { tool: template.tool } : {}),
    label: `${template.name} (${transport}${choice.dryRun ? ', dry run' : ''}) ${JSON.stringify(built.args)}`,
    transport,
    dryRun: choice.dryRun,
  }
}

/**
 * Every probe that names one hidden thing of a kind in one slot, the others drawn from what is
 * open: for each template, slot, transport and mode. The slot holds `{ target: true }`.
 */
export function targetedProbes(kind: SlotKind, open: Sides['open']): WriteProbe[] {
  const probes: WriteProbe[] = []
  for (const template of TEMPLATES) {
    template.slots.forEach((slotKind, slot) => {
      if (slotKind !== kind) return
      const refs = template.slots.map((other, i): Ref | null => {
        if (i === slot) return { target: true }
        const key = open[other][0]
        return key ? { key } : null
      })
      // Every variant that puts the target in the body or the path.
      for (let variant = 0; variant < 420; variant++) {
        const built = template.build(refs, variant)
        if (!JSON.stringify(built).includes('"target":true')) continue
        for (const transport of template.tool ? (['rest', 'mcp'] as const) : (['rest'] as const))
          for (const dryRun of [true, false])
            probes.push({
              ...built,
              ...(transport === 'mcp' ? { tool: template.tool } : {}),
              label: `${template.name} naming a hidden ${kind} (${transport}${dryRun ? ', dry run' : ''})`,
              transport,
              dryRun,
            })
        break
      }
    })
  }
  return probes
}

/**
 * Writes on open things whose own neighbours are hidden from `who`, where a rule could read the
 * hidden neighbour: reassigning an open task of a hidden project to each open person, changing
 * an open objective of a hidden project, and planning a task on an open canvas of a hidden
 * project. Each as a dry run, over REST (and MCP where a tool makes it).
 */
export function hiddenContextProbes(world: World, who: string, open: Sides['open']): WriteProbe[] {
  const hiddenProject = (project: string | null) => project !== null && !world.canOpen(who, project)
  const probes: WriteProbe[] = []
  const both = (probe: Omit<WriteProbe, 'transport' | 'dryRun' | 'tool'>, tool: string) => {
    probes.push({ ...probe, transport: 'rest', dryRun: true })
    probes.push({ ...probe, label: `${probe.label} (mcp)`, transport: 'mcp', tool, dryRun: true })
  }
  for (const task of open.task) {
    if (!hiddenProject(world.tasks.get(task)?.project ?? null)) continue
    for (const person of [...open.person, null])
      both(
        {
          label: `reassign ${task}, of a hidden project, to ${person}`,
          method: 'PATCH',
          path: ['/v1/tasks/', { key: task }],
          args: { task_id: { key: task }, assignee_id: person ? { key: person } : null },
        },
        'update_task',
      )
  }
  // An objective of a hidden project: the caller's record shows none, so null keeps it.
  for (const okr of open.okr) {
    if (!hiddenProject(world.okrs.get(okr)?.project ?? null)) continue
    const changes: Record<string, Arg>[] = [{ project_id: null }, { title: 'Retitled by a probe' }]
    for (const args of changes)
      probes.push({
        label: `change ${okr}, of a hidden project: ${JSON.stringify(args)}`,
        transport: 'rest',
        dryRun: true,
        method: 'PATCH',
        path: ['/v1/okrs/', { key: okr }],
        args,
      })
  }
  for (const canvas of open.canvas) {
    if (!hiddenProject(world.canvases.get(canvas)?.project ?? null)) continue
    for (const project of [...open.project, null])
      both(
        {
          label: `plan a task of ${project} on ${canvas}, of a hidden project`,
          method: 'POST',
          path: ['/v1/tasks'],
          args: {
            title: 'Planned by a probe',
            canvas_id: { key: canvas },
            ...(project ? { project_id: { key: project } } : {}),
          },
        },
        'create_task',
      )
  }
  return probes
}
