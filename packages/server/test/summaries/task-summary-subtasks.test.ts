import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import { assertValidSummary } from '../harness/summary-shape.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// A task summary lists its subtasks with who is on each, the next question about open work, and
// marks the overdue ones; a person the caller may not see is neither named nor called absent.

let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp({ clock: new ManualClock('2026-12-02T09:00:00Z') })
  const base = smallBundle()
  const sub = (key: string, fields: Record<string, string>) => ({
    key,
    project: 'open',
    parent: 'parent',
    creator: 'alice',
    status: 'todo' as const,
    ...fields,
  })
  ws = await importOk(t.db.db, {
    ...base,
    tasks: [
      ...(base.tasks ?? []),
      {
        key: 'parent',
        title: 'Launch checklist',
        status: 'todo',
        project: 'open',
        creator: 'alice',
      },
      sub('s-gus', { title: 'Write the guide', assignee: 'gus', due: '2026-11-20' }),
      sub('s-bob', {
        title: 'Wire the button',
        assignee: 'bob',
        status: 'in_progress',
        due: '2026-12-10',
      }),
      sub('s-none', { title: 'Pick a date' }),
    ],
  })
})
after(() => t.close())

const summary = async (key: string) => {
  const reply = await client(t.app, tokenOf(ws, key)).get(
    `/v1/resources/${ws.ids.parent}/summary?max_tokens=4000`,
  )
  assert.equal(reply.status, 200, reply.body)
  return { reply, body: assertValidSummary(reply.body, 4000) }
}

// The marker of a source, by id: `[n]`.
const markerOf = (sources: { id: string }[], id: string | undefined) =>
  `[${sources.findIndex((source) => source.id === id) + 1}]`

test("a task summary lists each subtask's assignee, cited, and marks the overdue ones", async () => {
  const { body } = await summary('alice-key')
  const gus = markerOf(body.sources, ws.ids.gus)
  const bob = markerOf(body.sources, ws.ids.bob)
  assert.notEqual(gus, '[0]', body.text)
  assert.notEqual(bob, '[0]', body.text)
  assert.ok(
    body.text.includes(
      `“Write the guide” ${markerOf(body.sources, ws.ids['s-gus'])} (to do, due 2026-11-20, overdue, assigned to “Gus Guest” ${gus})`,
    ),
    body.text,
  )
  assert.ok(
    body.text.includes(
      `“Wire the button” ${markerOf(body.sources, ws.ids['s-bob'])} (in progress, due 2026-12-10, assigned to “Bob Member” ${bob})`,
    ),
    body.text,
  )
  assert.ok(
    body.text.includes(
      `“Pick a date” ${markerOf(body.sources, ws.ids['s-none'])} (to do, unassigned)`,
    ),
    body.text,
  )
  assert.match(body.text, /It has 3 subtasks, 0 done: /)
})

test("a subtask's assignee the caller may not see is not revealed", async () => {
  // Gus, a guest of the open project, sees its tasks but not Bob, who is not on it.
  const gus = client(t.app, tokenOf(ws, 'gus-key'))
  assert.equal((await gus.get(`/v1/resources/${ws.ids.bob}`)).status, 404)
  assert.equal((await gus.get(`/v1/resources/${ws.ids['s-bob']}`)).status, 200)
  const { reply, body } = await summary('gus-key')
  for (const secret of ['Bob Member', 'Bob', ws.ids.bob as string])
    assert.ok(!reply.body.includes(secret), `${secret} in ${reply.body}`)
  // Neither named nor called unassigned: only what is true and visible is said.
  assert.ok(
    body.text.includes(
      `“Wire the button” ${markerOf(body.sources, ws.ids['s-bob'])} (in progress, due 2026-12-10)`,
    ),
    body.text,
  )
  assert.ok(body.text.includes('assigned to “Gus Guest”'), body.text)
  assert.ok(body.text.includes('(to do, unassigned)'), body.text)
})
