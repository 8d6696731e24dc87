import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// A task hit says whether it is overdue, so an agent need not compare dates itself: due before
// today's UTC day and not done, as the question "overdue" reads it.

let t: TestApp
let ws: ImportResult
before(async () => {
  // The day after the open task's due date.
  t = await startTestApp({ clock: new ManualClock('2026-12-02T09:00:00Z') })
  const base = smallBundle()
  ws = await importOk(t.db.db, {
    ...base,
    tasks: [
      ...(base.tasks ?? []),
      {
        key: 't-done',
        title: 'Done task',
        status: 'done',
        project: 'open',
        creator: 'alice',
        due: '2026-11-20',
      },
      {
        key: 't-today',
        title: 'Today task',
        status: 'todo',
        project: 'open',
        creator: 'alice',
        due: '2026-12-02',
      },
    ],
  })
})
after(() => t.close())

test('a task hit is overdue when due before today and not done; never otherwise', async () => {
  const reply = await client(t.app, tokenOf(ws, 'alice-key')).post('/v1/search', {
    query: 'task',
    limit: 50,
  })
  assert.equal(reply.status, 200, reply.body)
  const overdue = Object.fromEntries(
    reply.json.results
      .filter((hit: { type: string }) => hit.type === 'task')
      .map((hit: { id: string; overdue: boolean }) => [
        Object.entries(ws.ids).find(([, id]) => id === hit.id)?.[0],
        hit.overdue,
      ]),
  )
  assert.deepEqual(overdue, {
    't-open': true,
    't-secret': false,
    't-done': false,
    't-today': false,
  })
  for (const hit of reply.json.results)
    if (hit.type !== 'task') assert.equal('overdue' in hit, false, hit.type)
})
