import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { fenceArbitrary, importWithFence } from '../harness/fenced-viewers.ts'
import type { World } from '../harness/oracle.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { assertValidSummary } from '../harness/summary-shape.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { worldArbitrary } from '../harness/world-arbitrary.ts'

// Random worlds' tasks fall due through November 2026: today is in the middle of them.
const TODAY = '2026-11-15'
const DUE_SOON_END = '2026-11-22'

let t: TestApp
before(async () => {
  t = await startTestApp({ clock: new ManualClock(`${TODAY}T12:00:00Z`) })
})
after(() => t.close())

test('what needs attention counts and cites exactly what the caller may open, for every focus', async () => {
  await fc.assert(
    fc.asyncProperty(worldArbitrary(), fenceArbitrary, async (bundle, fence) => {
      const { result, world } = await importWithFence(t, bundle, fence)
      for (const who of world.viewers()) await checkViewer(bundle, result, world, who)
    }),
    { numRuns: Math.max(4, Math.floor(PROPERTY_RUNS / 2)), ...PROPERTY_SETTINGS },
  )
})

// The plain oracle's count of the open tasks the viewer may open among those of a focus.
function expectedCounts(
  bundle: Bundle,
  world: World,
  who: string,
  inFocus: (task: Task) => boolean,
) {
  const open = (bundle.tasks ?? []).filter(
    (task) => task.status !== 'done' && inFocus(task) && world.canOpenTask(who, task.key),
  )
  return {
    overdue_tasks: open.filter((task) => task.due && task.due < TODAY).length,
    due_soon_tasks: open.filter((task) => task.due && task.due >= TODAY && task.due < DUE_SOON_END)
      .length,
  }
}

type Task = NonNullable<Bundle['tasks']>[number]

async function checkViewer(bundle: Bundle, result: ImportResult, world: World, who: string) {
  const token = { ...result.api_keys, ...result.workspace_tokens }[`${who}-key`]?.token
  const api = client(t.app, token)
  const keyOf = new Map(Object.entries(result.ids).map(([key, id]) => [id, key]))
  const foci: [string, (task: Task) => boolean][] = [['workspace', () => true]]
  for (const project of world.projects.keys())
    foci.push([project, (task) => task.project === project])
  for (const person of world.roles.keys()) foci.push([person, (task) => task.assignee === person])
  for (const [focus, inFocus] of foci) {
    const id = focus === 'workspace' ? focus : (result.ids[focus] as string)
    const reply = await api.get(`/v1/attention?for=${id}&limit=20&max_tokens=20000`)
    const opens = focus === 'workspace' || world.canOpen(who, focus)
    if (!opens) {
      assert.equal(reply.status, 404, `${who} for hidden ${focus}: ${reply.body}`)
      continue
    }
    assert.equal(reply.status, 200, `${who} for ${focus}: ${reply.body}`)
    const body = assertValidSummary(reply.body, 20_000, `${who} for ${focus}`)
    const { overdue_tasks, due_soon_tasks } = body.facts
    assert.deepEqual(
      { overdue_tasks, due_soon_tasks },
      expectedCounts(bundle, world, who, inFocus),
      `${who} for ${focus}`,
    )
    for (const cited of body.sources) {
      const key = keyOf.get(cited.id)
      assert.ok(
        key === undefined || world.canOpen(who, key) || world.canSeeIntegration(who, key),
        `${who} for ${focus} cites hidden ${key}`,
      )
    }
  }
}
