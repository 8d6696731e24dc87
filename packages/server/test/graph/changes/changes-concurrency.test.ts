import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'
import { ENGINE } from '../../harness/test-database.ts'

// The feed under writers whose transactions commit out of the order they started in (docs/
// changes.md, "Positions"): a reader following with wait= gets every committed change exactly
// once, in commit order, and nothing of a write that rolled back. PostgreSQL only: PGlite runs
// one transaction at a time, so nothing can commit out of order there.

const skip = ENGINE !== 'postgres' && 'concurrent transactions need PostgreSQL'
const WRITERS = 8
const WRITES_PER_WRITER = 12

let t: TestApp
let ws: ImportResult
before(async () => {
  if (skip) return
  t = await startTestApp()
  ws = await importOk(t.db.db, writableBundle())
})
after(() => t?.close())

test('concurrent writers, two readers: every committed change once, in one order, no gap', {
  skip,
}, async () => {
  const writer = client(t.app, tokenOf(ws, 'alice-key'))
  const project = ws.ids.open as string
  let failures = 0
  // Each write waits a random while after its rows are written, and one in ten fails there:
  // writes commit out of the order they started in, and a failed one must leave no gap.
  t.deps.writeHooks.beforeCommit = async () => {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 15))
    if (Math.random() < 0.1) {
      failures++
      throw new Error('injected failure before commit')
    }
  }
  const readerKeys = ['olive-key', 'alice-key']
  const starts = await Promise.all(
    readerKeys.map(async (key) => (await client(t.app, tokenOf(ws, key)).get('/v1/changes')).json),
  )
  const committed: string[] = []
  let writing = true
  const writers = Array.from({ length: WRITERS }, async (_, w) => {
    for (let i = 0; i < WRITES_PER_WRITER; i++) {
      const reply =
        i % 3 === 2
          ? await writer.post('/v1/comments', { resource_id: ws.ids['t-open'], body: `${w}/${i}` })
          : await writer.post('/v1/tasks', { title: `Write ${w}/${i}`, project_id: project })
      if (reply.status === 201) committed.push(reply.json.id)
      else assert.equal(reply.status, 500, reply.body)
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5))
    }
  })
  // Two readers, so that numbering passes also run side by side.
  const follow = async (key: string, start: string) => {
    const api = client(t.app, tokenOf(ws, key))
    const seen: { id: string; resource_id: string }[] = []
    let cursor = start
    for (;;) {
      const done = !writing
      const page = await api.get(`/v1/changes?cursor=${encodeURIComponent(cursor)}&wait=1`)
      assert.equal(page.status, 200, page.body)
      seen.push(...page.json.data)
      cursor = page.json.next_cursor
      // After the writers finished, one empty page means the reader has caught up.
      if (done && page.json.data.length === 0) return seen
    }
  }
  const readers = Promise.all(readerKeys.map((key, i) => follow(key, starts[i].next_cursor)))
  await Promise.all(writers)
  writing = false
  const [seen = [], seenByWriter] = await readers
  t.deps.writeHooks.beforeCommit = undefined
  assert.deepEqual(seenByWriter, seen, 'both readers see the same changes in the same order')

  assert.ok(failures > 0 && committed.length > 0, `${failures} failed, ${committed.length} wrote`)
  assert.deepEqual(
    seen.map((change) => change.resource_id).sort(),
    [...committed].sort(),
    'every committed change exactly once, none of a rolled-back write',
  )
  const positions = await t.db.db
    .selectFrom('activity')
    .select(['id', 'position'])
    .where('workspace_id', '=', ws.workspace_id)
    .where(
      'id',
      'in',
      seen.map((change) => change.id),
    )
    .execute()
  const positionOf = new Map(positions.map((row) => [row.id, Number(row.position)]))
  const order = seen.map((change) => positionOf.get(change.id) as number)
  const first = order[0] as number
  assert.deepEqual(
    order,
    order.map((_, i) => first + i),
    'positions arrive consecutive and increasing: commit order, no gap, no repeat',
  )
})
