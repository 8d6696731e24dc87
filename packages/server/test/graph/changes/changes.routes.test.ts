import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { ManualClock } from '../../../src/lib/clock.ts'
import { importOk, tokenOf, writableBundle } from '../../harness/bundles.ts'
import { pollsWaiting } from '../../harness/polls-waiting.ts'
import { client, type Reply, startTestApp, type TestApp } from '../../harness/test-app.ts'

// The change feed, GET /v1/changes (docs/changes.md): from now or from the start of the window,
// paging without repeats, filters, scopes, read-time visibility, cursors bound to the person,
// retention (410) and long polling.

let t: TestApp
let ws: ImportResult
const clock = new ManualClock('2026-11-22T10:00:00.000Z')
const DAY = 24 * 60 * 60 * 1000

before(async () => {
  t = await startTestApp({ clock })
  const bundle = writableBundle()
  bundle.api_keys?.push({ key: 'people-key', person: 'alice', scopes: ['people:read'] })
  ws = await importOk(t.db.db, bundle, { now: clock.now() })
})
after(() => t.close())

const as = (key: string) => client(t.app, tokenOf(ws, key))
const id = (key: string) => ws.ids[key] as string
const enc = encodeURIComponent

/** Follows the feed from a cursor (or the start) until a page comes back empty. */
async function follow(
  key: string,
  start: { cursor?: string; query?: string },
  limit = 50,
  // biome-ignore lint/suspicious/noExplicitAny: changes are checked field by field
): Promise<{ changes: any[]; cursor: string }> {
  const changes = []
  let cursor = start.cursor
  for (let page = 0; page < 100; page++) {
    const from = cursor === undefined ? 'from=start' : `cursor=${enc(cursor)}`
    const reply = await as(key).get(`/v1/changes?${from}&limit=${limit}${start.query ?? ''}`)
    assert.equal(reply.status, 200, reply.body)
    cursor = reply.json.next_cursor as string
    if (reply.json.data.length === 0) return { changes, cursor }
    changes.push(...reply.json.data)
  }
  throw new Error('the feed did not end')
}

const names = (changes: { event: string; resource_id: string }[]) => {
  const keyOf = new Map(Object.entries(ws.ids).map(([key, value]) => [value, key]))
  return changes.map((change) => `${change.event} ${keyOf.get(change.resource_id) ?? '?'}`)
}

test('without a cursor the feed starts now; from=start begins at the oldest retained change', async () => {
  const now = await as('alice-key').get('/v1/changes')
  assert.equal(now.status, 200)
  assert.deepEqual(now.json.data, [])
  assert.equal((await follow('alice-key', { cursor: now.json.next_cursor })).changes.length, 0)
  const all = await follow('alice-key', {})
  // The projects were created in January: older than the 30 days the feed keeps.
  assert.deepEqual(names(all.changes).sort(), [
    'canvas.created plan',
    'comment.created m1',
    'okr.created o1',
    'task.created t-open',
    'task.created t-secret',
  ])
  assert.deepEqual(Object.keys(all.changes[0]).sort(), [
    'changes',
    'event',
    'id',
    'occurred_at',
    'resource_id',
    'resource_type',
  ])
  const paged = await follow('alice-key', {}, 2)
  assert.deepEqual(paged.changes, all.changes, 'pages of 2 give the same changes, in order')
  const times = all.changes.map((change) => change.occurred_at)
  assert.equal(times[0], '2026-11-20T10:00:00.000Z', 'oldest first')
})

test('a write appears once after the cursor; what the caller cannot open is skipped', async () => {
  const alice = (await as('alice-key').get('/v1/changes')).json.next_cursor
  const bob = (await as('bob-key').get('/v1/changes')).json.next_cursor
  const hidden = await as('alice-key').post('/v1/tasks', {
    title: 'Hidden work',
    project_id: id('secret'),
  })
  assert.equal(hidden.status, 201)
  const bobPage = await as('bob-key').get(`/v1/changes?cursor=${enc(bob)}`)
  assert.deepEqual(bobPage.json.data, [], 'no trace of the secret task')
  assert.notEqual(bobPage.json.next_cursor, bob, 'the cursor moves past the hidden change')
  const open = await as('alice-key').post('/v1/tasks', {
    title: 'Open work',
    project_id: id('open'),
  })
  const done = await as('alice-key').post(`/v1/tasks/${open.json.id}/complete`)
  assert.equal(done.status, 200)
  const seenByBob = await follow('bob-key', { cursor: bobPage.json.next_cursor })
  assert.deepEqual(
    seenByBob.changes.map((change) => [change.event, change.resource_id]),
    [
      ['task.created', open.json.id],
      ['task.completed', open.json.id],
    ],
  )
  const seenByAlice = await follow('alice-key', { cursor: alice })
  assert.deepEqual(
    seenByAlice.changes.map((change) => change.resource_id),
    [hidden.json.id, open.json.id, open.json.id],
  )
  assert.equal(seenByAlice.changes[0].resource_type, 'task')
  assert.equal(seenByAlice.changes[0].occurred_at, clock.now().toISOString())
})

test('types and project_id filter; scopes narrow the types without an error', async () => {
  const tasks = await follow('alice-key', { query: '&types=task.created,task.completed' })
  assert.ok(tasks.changes.length >= 3)
  assert.ok(tasks.changes.every((c) => c.event === 'task.created' || c.event === 'task.completed'))
  const open = await follow('alice-key', { query: `&project_id=${id('open')}` })
  assert.ok(names(open.changes).includes('task.created t-open'))
  for (const name of ['task.created t-secret', 'canvas.created plan', 'comment.created m1'])
    assert.ok(!names(open.changes).includes(name), name)
  const narrow = await follow('narrow-key', {})
  assert.ok(narrow.changes.length >= 3)
  assert.ok(narrow.changes.every((change) => change.resource_type === 'task'))
  // A key that reads only people and teams follows their changes, and no others.
  const people = await as('people-key').get('/v1/changes?from=start')
  assert.equal(people.status, 200, people.body)
  assert.ok(
    people.json.data.every((c: { resource_type: string }) =>
      ['person', 'team'].includes(c.resource_type),
    ),
  )
})

test('bad parameters are 4xx problems, and a hidden project the one 404', async () => {
  const api = as('alice-key')
  const expect = async (url: string, status: number, path: string) => {
    const reply: Reply = await api.get(url)
    assert.equal(reply.status, status, `${url}: ${reply.body}`)
    assert.ok(
      reply.json.errors.some((error: { path: string }) => error.path === path),
      url,
    )
  }
  await expect('/v1/changes?from=start&types=task.created,task.exploded', 422, '/types')
  await expect('/v1/changes?from=start&types=', 422, '/types')
  await expect('/v1/changes?from=start&wait=31', 422, '/wait')
  await expect('/v1/changes?from=start&limit=201', 422, '/limit')
  await expect('/v1/changes?from=later', 422, '/from')
  const cursor = (await api.get('/v1/changes')).json.next_cursor
  await expect(`/v1/changes?from=start&cursor=${enc(cursor)}`, 422, '/from')
  await expect(`/v1/changes?cursor=${enc(cursor)}x`, 400, '/cursor')
  await expect('/v1/changes?cursor=bm9wZQ.abc', 400, '/cursor')
  const hidden = await as('bob-key').get(`/v1/changes?project_id=${id('secret')}`)
  assert.equal(hidden.status, 404)
  const unknown = await as('bob-key').get('/v1/changes?project_id=prj_00000000000000000000000000')
  assert.deepEqual({ ...hidden.json, request_id: null }, { ...unknown.json, request_id: null })
})

test('a cursor is bound to its person and filters, not to the key', async () => {
  const cursor = (await as('alice-key').get('/v1/changes')).json.next_cursor
  const bob = await as('bob-key').get(`/v1/changes?cursor=${enc(cursor)}`)
  assert.equal(bob.status, 400)
  assert.equal(bob.json.code, 'invalid_request')
  const filtered = await as('alice-key').get(`/v1/changes?cursor=${enc(cursor)}&types=okr.created`)
  assert.equal(filtered.status, 400)
  const otherKey = await as('narrow-key').get(`/v1/changes?cursor=${enc(cursor)}`)
  assert.equal(otherKey.status, 200, "another of alice's keys resumes her feed")
})

test('a caller far behind many hidden changes makes progress in bounded steps', async () => {
  const start = (await as('gus-key').get('/v1/changes')).json.next_cursor
  const aliceStart = (await as('alice-key').get('/v1/changes')).json.next_cursor
  // 12,000 changes in the secret project, written as the API would (positions in order).
  await sql`
    with head as (select last from change_positions where workspace_id = ${ws.workspace_id})
    insert into activity (workspace_id, id, verb, actor_id, subject_id, subject_type, project_id,
      ref_ids, created_at, position)
    select ${ws.workspace_id}, 'act_bulk' || n, 'task.created', ${id('alice')}, ${id('t-secret')},
      'task', ${id('secret')}, array[${id('secret')}], ${clock.now()}, head.last + n
    from head, generate_series(1, 12000) as n`.execute(t.db.db)
  await sql`update change_positions set last = last + 12000
    where workspace_id = ${ws.workspace_id}`.execute(t.db.db)
  const visible = await as('alice-key').post('/v1/tasks', {
    title: 'After',
    project_id: id('open'),
  })
  const first = await as('gus-key').get(`/v1/changes?cursor=${enc(start)}&wait=5`)
  assert.deepEqual(first.json.data, [], 'a bounded scan answers empty, without waiting')
  const second = await as('gus-key').get(`/v1/changes?cursor=${enc(first.json.next_cursor)}`)
  assert.deepEqual(
    second.json.data.map((change: { resource_id: string }) => change.resource_id),
    [visible.json.id],
  )
  const alice = await follow('alice-key', { cursor: aliceStart }, 200)
  assert.equal(alice.changes.length, 12001, 'alice sees every one, at most 200 a page')
})

test('long polling answers as soon as a write commits, and empty when the wait ends', async () => {
  const cursor = (await as('bob-key').get('/v1/changes')).json.next_cursor
  const started = performance.now()
  const already = t.deps.changeSignal.waiting(ws.workspace_id)
  const waiting = as('bob-key').get(`/v1/changes?cursor=${enc(cursor)}&wait=20`)
  await pollsWaiting(t.deps, ws.workspace_id, already + 1)
  const task = await as('alice-key').post('/v1/tasks', { title: 'Wake', project_id: id('open') })
  const woken = await waiting
  assert.equal(woken.status, 200)
  assert.deepEqual(
    woken.json.data.map((change: { resource_id: string }) => change.resource_id),
    [task.json.id],
  )
  assert.ok(performance.now() - started < 5000, 'well before the 20 s wait')
  const quiet = performance.now()
  const empty = await as('bob-key').get(`/v1/changes?cursor=${enc(woken.json.next_cursor)}&wait=1`)
  const waited = performance.now() - quiet
  assert.deepEqual(empty.json.data, [])
  assert.ok(waited >= 950 && waited < 4000, `waited ${waited} ms`)
})

test('a cursor older than the 30-day window is 410 cursor_expired', async () => {
  const cursor = (await as('alice-key').get('/v1/changes')).json.next_cursor
  await as('alice-key').post('/v1/tasks', { title: 'Old news', project_id: id('open') })
  const afterIt = (await as('alice-key').get('/v1/changes')).json.next_cursor
  clock.advance(31 * DAY)
  const expired = await as('alice-key').get(`/v1/changes?cursor=${enc(cursor)}`)
  assert.equal(expired.status, 410)
  assert.equal(expired.json.code, 'cursor_expired')
  assert.match(expired.json.detail, /Resynchronize/)
  const idle = await as('alice-key').get(`/v1/changes?cursor=${enc(afterIt)}`)
  assert.equal(idle.status, 200, 'nothing after this cursor has left the window')
  assert.deepEqual((await follow('alice-key', {})).changes, [], 'from=start: nothing retained')
  const fresh = (await as('alice-key').get('/v1/changes')).json.next_cursor
  const task = await as('alice-key').post('/v1/tasks', { title: 'New', project_id: id('open') })
  const resumed = await follow('alice-key', { cursor: fresh })
  assert.deepEqual(
    resumed.changes.map((change) => change.resource_id),
    [task.json.id],
  )
})
