import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../server/src/bundle/import-bundle.ts'
import { type ListeningApp, startListeningApp } from '../../server/test/harness/browser-app.ts'
import { importOk, tokenOf, writableBundle } from '../../server/test/harness/bundles.ts'
import { pollsWaiting } from '../../server/test/harness/polls-waiting.ts'
import { type Change, Workgraph, WorkgraphError } from '../src/index.ts'

// wg.changes over HTTP: one read, and follow() as an async iterator that long-polls and resumes.
let t: ListeningApp
let ws: ImportResult
const sdk = (key = 'alice-key') => new Workgraph({ apiKey: tokenOf(ws, key), baseUrl: t.origin })

before(async () => {
  t = await startListeningApp()
  ws = await importOk(t.db.db, writableBundle(), { now: t.deps.clock.now() })
})
after(() => t.close())

test('list: from now is empty with a cursor; from start gives the retained changes', async () => {
  const now = await sdk().changes.list()
  assert.deepEqual(now.data, [])
  assert.equal(typeof now.next_cursor, 'string')
  const start = await sdk().changes.list({ from: 'start', types: 'task.created' })
  assert.ok(start.data.length >= 2 && start.data.every((change) => change.event === 'task.created'))
  await assert.rejects(
    sdk().changes.list({ types: 'task.exploded' }),
    (error) => error instanceof WorkgraphError && error.status === 422,
  )
})

test('follow yields each write once, in order, and resumes from its cursor', async () => {
  const wg = sdk('bob-key')
  const controller = new AbortController()
  const follower = wg.changes.follow(
    { types: 'task.created', wait: 5 },
    { signal: controller.signal },
  )
  const seen: Change[] = []
  const following = (async () => {
    for await (const change of follower) {
      seen.push(change)
      if (seen.length === 3) controller.abort()
    }
  })()
  // The follower takes its starting cursor first; writes after that are what it must see.
  while (follower.cursor === undefined) await new Promise((resolve) => setTimeout(resolve, 20))
  const created: string[] = []
  for (const title of ['One', 'Two', 'Three']) {
    const task = await sdk().tasks.create({ title, project_id: ws.ids.open })
    created.push(task.id)
  }
  await following
  assert.deepEqual(
    seen.map((change) => change.resource_id),
    created,
  )
  const later = await sdk().tasks.create({ title: 'Four', project_id: ws.ids.open })
  const resumed = wg.changes.follow({ types: 'task.created', cursor: follower.cursor, wait: 1 })
  for await (const change of resumed) {
    assert.equal(change.resource_id, later.id, 'the next change after the stored cursor')
    break
  }
})

test('follow from the start ends cleanly when aborted while waiting', async () => {
  const controller = new AbortController()
  const seen: Change[] = []
  // Aborted once the follower's long poll is waiting on the server, however long reading the
  // retained changes took; the clock only bounds a hang.
  const waiting = pollsWaiting(t.deps, ws.workspace_id).finally(() => controller.abort())
  for await (const change of sdk().changes.follow(
    { from: 'start', wait: 10 },
    { signal: controller.signal },
  ))
    seen.push(change)
  await waiting
  assert.ok(seen.length >= 5, 'the retained changes, then a wait the abort ends')
})
