import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { ALL_READ_SCOPES, ALL_WRITE_SCOPES, importOk } from '../harness/bundles.ts'
import { hiddenVariant, variantChoices } from '../harness/hidden-variant.ts'
import { World } from '../harness/oracle.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { contentState } from '../harness/row-counts.ts'
import { stableIds } from '../harness/stable-ids.ts'
import { StatementLog } from '../harness/statement-log.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'
import { worldArbitrary } from '../harness/world-arbitrary.ts'
import {
  drawnProbe,
  hiddenContextProbes,
  normalizeAnswer,
  type ProbeAnswer,
  probeChoice,
  type SlotKind,
  sendProbe,
  sidesOf,
  targetedProbes,
  unknownId,
  type WriteProbe,
} from '../harness/write-probes.ts'

// Noninterference of writes (docs/permissions.md, "Inferring what one cannot see"): a write's
// answer, its error, its dry run and the statements it costs depend only on what its caller may
// open. Two properties, on random workspaces, over REST and MCP, real writes and dry runs:
//  - two worlds that differ only in what the caller cannot open (hidden projects renamed, given
//    other members and the other visibility; hidden teams given other members; hidden tasks,
//    canvases, objectives, comments and people reworded) answer every write alike;
//  - a write naming a hidden project, task, canvas, person, team, key result, comment or
//    objective answers exactly as one naming an id that does not exist, and writes nothing.

const log = new StatementLog()
let t: TestApp
before(async () => {
  t = await startTestApp({ plugin: log })
})
after(() => t.close())

const NOW = new Date('2026-11-22T08:00:00.000Z')

// Every person and integration gets a key that reads and writes all its owner may (the people
// writes too), and makes keys.
function withWriters(bundle: Bundle): Bundle {
  const scopes = [
    ...ALL_READ_SCOPES,
    ...ALL_WRITE_SCOPES,
    'okr:write',
    'people:write',
    'token:manage',
  ]
  return {
    ...bundle,
    api_keys: bundle.people.map((p) => ({ key: `${p.key}-writer`, person: p.key, scopes })),
    workspace_tokens: (bundle.integrations ?? []).map((i) => ({
      key: `${i.key}-writer`,
      integration: i.key,
      scopes: scopes.filter((scope) => scope !== 'token:manage'),
    })),
  }
}

const tokenOf = (result: ImportResult, who: string) =>
  (result.api_keys[`${who}-writer`] ?? result.workspace_tokens[`${who}-writer`])?.token as string

// Bundle keys by id, and the workspace.
function namesOf(result: ImportResult): Map<string, string> {
  const names = new Map(Object.entries(result.ids).map(([key, id]) => [id, key]))
  names.set(result.workspace_id, '<workspace>')
  return names
}

// What a request costs whatever it asks: rate-limit counts (flushed in batches) and a token's
// last use (noted now and then).
const BOOKKEEPING = / (rate_limit_windows|tokens)$/

/** Sends a probe, with the statements it cost (their kinds and tables), bookkeeping aside. */
async function measured(
  token: string,
  probe: WriteProbe,
  ids: Record<string, string>,
  target?: string,
  key?: string,
): Promise<{ answer: ProbeAnswer; statements: string }> {
  log.clear()
  const answer = await sendProbe(t.app, token, probe, ids, target, key)
  const statements = log.statements.filter((statement) => !BOOKKEEPING.test(statement))
  return { answer, statements: statements.join('\n') }
}

const whoArbitrary = fc.nat()

// A 5xx, over REST or as MCP tells it.
const failed = (answer: ProbeAnswer) => answer.status >= 500 || /"Error 5\d\d /.test(answer.body)

// A token's first requests fill caches (its principal, when it was last used): statements are
// compared after them.
async function warm(token: string): Promise<void> {
  for (let i = 0; i < 2; i++) {
    await sendProbe(t.app, token, WARM_UP, {}, undefined)
    await sendProbe(t.app, token, { ...WARM_UP, transport: 'mcp', tool: 'update_task' }, {})
  }
}
const WARM_UP: WriteProbe = {
  label: 'warm-up',
  transport: 'rest',
  dryRun: true,
  method: 'PATCH',
  path: ['/v1/tasks/', { unknown: 'task' }],
  args: { task_id: { unknown: 'task' }, status: 'done' },
}

test('two worlds a caller sees alike answer its every write alike, REST and MCP, real and dry', async () => {
  await fc.assert(
    fc.asyncProperty(
      worldArbitrary('w'),
      whoArbitrary,
      variantChoices,
      fc.array(probeChoice, { minLength: 4, maxLength: 16 }),
      async (plain, pick, choices, drawn) => {
        const bundle = withWriters(plain)
        const callers = [
          ...bundle.people.map((p) => p.key),
          ...(bundle.integrations ?? []).map((i) => i.key),
        ]
        const who = callers[pick % callers.length] as string
        const variant = hiddenVariant(bundle, who, choices)
        const makeId = stableIds(`${Math.random()}`)
        const a = await importOk(t.db.db, bundle, { now: NOW, makeId })
        const b = await importOk(t.db.db, variant, { now: NOW, makeId })
        const world = new World(bundle)
        const { open } = sidesOf(world, bundle, who)
        const [namesA, namesB] = [namesOf(a), namesOf(b)]
        await warm(tokenOf(a, who))
        await warm(tokenOf(b, who))
        const probes = [
          ...hiddenContextProbes(world, who, open),
          ...drawn.map((choice) => drawnProbe(choice, open)),
        ]
        for (const [i, probe] of probes.entries()) {
          const key = `probe-${i}`
          const one = await measured(tokenOf(a, who), probe, a.ids, undefined, key)
          const two = await measured(tokenOf(b, who), probe, b.ids, undefined, key)
          const [answerA, answerB] = [
            normalizeAnswer(one.answer, namesA),
            normalizeAnswer(two.answer, namesB),
          ]
          assert.ok(!failed(one.answer), `${probe.label}: ${answerA}`)
          assert.ok(!answerB.includes('hidden variant'), `${who}, ${probe.label}: ${answerB}`)
          assert.equal(answerB, answerA, `${who}, ${probe.label}`)
          assert.equal(two.statements, one.statements, `${who}, ${probe.label}: statements`)
        }
      },
    ),
    { numRuns: PROPERTY_RUNS, ...PROPERTY_SETTINGS },
  )
})

const KINDS: readonly SlotKind[] = [
  'project',
  'task',
  'canvas',
  'person',
  'team',
  'key_result',
  'comment',
  'okr',
]
// A name no world gives anything.
const NOBODY = 'Nobody By This Name'

// The names of a world's things of a kind that may be given by name, by key; null for the rest.
function nameOf(bundle: Bundle, kind: SlotKind): ((key: string) => string) | null {
  const things =
    kind === 'person'
      ? bundle.people
      : kind === 'project'
        ? (bundle.projects ?? [])
        : kind === 'team'
          ? (bundle.teams ?? [])
          : null
  if (!things) return null
  const byKey = new Map(things.map((thing) => [thing.key, thing.name]))
  return (key) => byKey.get(key) as string
}

// Hidden things of a kind tried per world: enough to meet each way of being hidden.
const HIDDEN_PER_KIND = 3

test('a write naming a hidden thing answers as one naming nothing, and writes nothing', async () => {
  await fc.assert(
    fc.asyncProperty(worldArbitrary('w'), whoArbitrary, async (plain, pick) => {
      const bundle = withWriters(plain)
      const callers = [
        ...bundle.people.map((p) => p.key),
        ...(bundle.integrations ?? []).map((i) => i.key),
      ]
      const who = callers[pick % callers.length] as string
      const result = await importOk(t.db.db, bundle, { now: NOW })
      const world = new World(bundle)
      const { open, hidden } = sidesOf(world, bundle, who)
      const names = namesOf(result)
      const token = tokenOf(result, who)
      await warm(token)
      const before = await contentState(t.db.db)
      for (const kind of KINDS) {
        const targets = hidden[kind].slice(0, HIDDEN_PER_KIND)
        if (targets.length === 0) continue
        for (const probe of targetedProbes(kind, open)) {
          const unknown = unknownId(kind)
          const expected = await measured(token, probe, result.ids, unknown)
          const told = normalizeAnswer(expected.answer, names, unknown)
          for (const target of targets) {
            const id = result.ids[target] as string
            const got = await measured(token, probe, result.ids, id)
            assert.ok(!failed(got.answer), `${who}, ${target}: ${probe.label}: ${got.answer.body}`)
            assert.equal(
              normalizeAnswer(got.answer, names, id),
              told,
              `${who}, ${target}: ${probe.label}`,
            )
            assert.equal(
              got.statements,
              expected.statements,
              `${who}, ${target}: ${probe.label}: statements`,
            )
          }
          // By name (docs/api.md, "Names for ids"): a hidden person's, team's or project's name
          // answers as a name nobody has. World names never contain one another's whole words.
          const named = nameOf(bundle, kind)
          if (!named) continue
          const nobody = await measured(token, probe, result.ids, NOBODY)
          for (const target of targets) {
            const name = named(target)
            const got = await measured(token, probe, result.ids, name)
            assert.equal(
              normalizeAnswer(got.answer, names, name),
              normalizeAnswer(nobody.answer, names, NOBODY),
              `${who}, ${target} by name: ${probe.label}`,
            )
            assert.equal(got.statements, nobody.statements, `${who}, ${target} by name`)
          }
        }
      }
      // Keys note when they were last used; nothing else may change.
      const { tokens: _, ...after } = await contentState(t.db.db)
      const { tokens: __, ...expected } = before
      assert.deepEqual(after, expected)
    }),
    { numRuns: Math.max(3, Math.floor(PROPERTY_RUNS / 2)), ...PROPERTY_SETTINGS },
  )
})
