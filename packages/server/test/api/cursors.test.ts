import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { buildApp } from '../../src/app.ts'
import { createAppDeps } from '../../src/app-deps.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { loadConfig } from '../../src/config.ts'
import { openDatabase } from '../../src/db/connect.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { client, type Reply, startTestApp, TEST_SECRET, type TestApp } from '../harness/test-app.ts'
import { ENGINE } from '../harness/test-database.ts'

// Cursors (docs/api.md, "Paging"; docs/changes.md, "Cursors"): every cursor the service hands
// out is opaque (nothing in it can be read: no position, count, time or id) and authenticated (an
// edited, cut, foreign or made-up one is the same 400), and works on every instance that shares
// the service secret.

let t: TestApp
let ws: ImportResult
const clock = new ManualClock('2026-11-22T10:00:00.000Z')
const apps: { app: FastifyInstance; close(): Promise<void> }[] = []

before(async () => {
  t = await startTestApp({ clock })
  ws = await importOk(t.db.db, writableBundle(), { now: clock.now() })
  // A few writes, so that the activity stream, the audit log and the feed have pages.
  for (const title of ['First', 'Second', 'Third'])
    await as('alice-key').post('/v1/tasks', { title, project_id: id('open') })
})
after(async () => {
  for (const other of apps) await other.close()
  await t.close()
})

const as = (key: string) => client(t.app, tokenOf(ws, key))
const id = (key: string) => ws.ids[key] as string
const enc = encodeURIComponent

/** Another instance on the same database, with the given service secret. */
async function instance(secret: Buffer): Promise<FastifyInstance> {
  const handle =
    ENGINE === 'postgres'
      ? await openDatabase({ kind: 'postgres', url: t.db.url as string })
      : undefined
  const app = await buildApp(
    createAppDeps({
      db: handle?.db ?? t.db.db,
      engine: ENGINE,
      config: loadConfig({ LOG_LEVEL: 'silent' }),
      secret,
      clock,
    }),
  )
  apps.push({
    app,
    async close() {
      await app.close()
      await handle?.close()
    },
  })
  return app
}

/**
 * What a client could read out of a cursor by decoding it: JSON, times and ids, in the whole
 * string or in any of its dot-separated parts, as base64url.
 */
function readableIn(cursor: string): string[] {
  const found: string[] = []
  for (const part of [cursor, ...cursor.split('.')]) {
    const bytes = Buffer.from(part, 'base64url')
    const text = bytes.toString('latin1')
    found.push(...(text.match(/\d{4}-\d\d-\d\dT\d\d:\d\d|[a-z]{2,4}_[0-9a-z]{26}/g) ?? []))
    try {
      JSON.parse(bytes.toString('utf8'))
      found.push(`JSON in ${part.slice(0, 12)}…`)
    } catch {}
  }
  return found
}

/** The feed's "now" cursor of a key. */
const now = async (key: string): Promise<string> =>
  (await as(key).get('/v1/changes')).json.next_cursor

test('no cursor of any list, of the feed, of search or of MCP tools can be read', async () => {
  const cursors = new Map<string, string>()
  for (const [key, url] of [
    ['alice-key', '/v1/projects?limit=1'],
    ['alice-key', '/v1/tasks?limit=1'],
    ['alice-key', '/v1/people?limit=1'],
    ['alice-key', '/v1/activity?limit=1'],
    ['alice-key', `/v1/resources/${id('t-secret')}/links?limit=1`],
    ['alice-key', `/v1/projects/${id('open')}/activity?limit=1`],
    ['alice-key', '/v1/changes?from=start&limit=1'],
    ['alice-key', '/v1/changes'],
    ['olive-key', '/v1/tokens?limit=1'],
    ['olive-key', '/v1/audit?limit=1'],
  ] as const) {
    const reply = await as(key).get(url)
    assert.equal(reply.status, 200, `${url}: ${reply.body}`)
    assert.equal(typeof reply.json.next_cursor, 'string', `${url} has a next page`)
    cursors.set(url, reply.json.next_cursor)
  }
  const search = await as('alice-key').post('/v1/search', { query: 'task', limit: 1 })
  assert.equal(typeof search.json.next_cursor, 'string', search.body)
  cursors.set('POST /v1/search', search.json.next_cursor)
  for (const [tool, args] of [
    ['list', { type: 'task', limit: 1 }],
    ['activity', { limit: 1 }],
    ['search', { query: 'task', limit: 1 }],
  ] as const) {
    const called = await callToolInProcess(t.app, tokenOf(ws, 'alice-key'), tool, args)
    const next = called.structuredContent?.next_cursor
    assert.equal(typeof next, 'string', `${tool}: ${JSON.stringify(called)}`)
    cursors.set(`mcp ${tool}`, next as string)
  }
  for (const [where, cursor] of cursors) {
    assert.deepEqual(readableIn(cursor), [], `${where}: ${cursor}`)
    assert.match(cursor, /^[A-Za-z0-9_-]+$/, `${where}: one opaque word`)
  }
})

test("a guest's feed cursors tell nothing of hidden changes: not their number, not whether any", async () => {
  const before = await now('gus-key')
  const again = await now('gus-key')
  assert.notEqual(again, before, 'two cursors at one place differ, so comparing them tells nothing')
  await as('alice-key').post('/v1/tasks', { title: 'Hidden', project_id: id('secret') })
  // Thousands of changes in the secret project, written as the API would (positions in order).
  await sql`
    with head as (select last from change_positions where workspace_id = ${ws.workspace_id})
    insert into activity (workspace_id, id, verb, actor_id, subject_id, subject_type, project_id,
      ref_ids, created_at, position)
    select ${ws.workspace_id}, 'act_hidden' || n, 'task.created', ${id('alice')}, ${id('t-secret')},
      'task', ${id('secret')}, array[${id('secret')}], ${clock.now()}, head.last + n
    from head, generate_series(1, 12000) as n`.execute(t.db.db)
  await sql`update change_positions set last = last + 12000
    where workspace_id = ${ws.workspace_id}`.execute(t.db.db)
  const later = await now('gus-key')
  const moved = await as('gus-key').get(`/v1/changes?cursor=${enc(before)}`)
  assert.deepEqual(moved.json.data, [], 'no trace of the hidden changes')
  const cursors = [before, again, later, moved.json.next_cursor as string]
  assert.equal(new Set(cursors).size, cursors.length)
  assert.deepEqual(
    cursors.map((cursor) => cursor.length),
    cursors.map(() => before.length),
    'cursors at positions 10 and 12,000 apart are as long as each other',
  )
  for (const cursor of cursors) assert.deepEqual(readableIn(cursor), [], cursor)
  const resumed = await as('gus-key').get(`/v1/changes?cursor=${enc(moved.json.next_cursor)}`)
  assert.equal(resumed.status, 200, 'the cursor still works')
})

test('an edited, cut, foreign or made-up cursor is the same 400, on lists, the feed and search', async () => {
  const tasks = (await as('alice-key').get('/v1/tasks?limit=1')).json.next_cursor as string
  const filtered = (await as('alice-key').get(`/v1/tasks?limit=1&project_id=${id('open')}`)).json
    .next_cursor as string
  const bobs = (await as('bob-key').get('/v1/tasks?limit=1')).json.next_cursor as string
  const feed = await now('alice-key')
  const searched = (await as('alice-key').post('/v1/search', { query: 'task', limit: 1 })).json
    .next_cursor as string
  const elsewhere = await instance(Buffer.alloc(32, 9))
  const foreignSecret = (await client(elsewhere, tokenOf(ws, 'alice-key')).get('/v1/tasks?limit=1'))
    .json.next_cursor as string
  const flip = (cursor: string, at: number) =>
    cursor.slice(0, at) + (cursor[at] === 'A' ? 'B' : 'A') + cursor.slice(at + 1)
  const variants = (cursor: string) => [
    flip(cursor, 0),
    flip(cursor, Math.floor(cursor.length / 2)),
    flip(cursor, cursor.length - 1),
    cursor.slice(0, -1),
    cursor.slice(0, -4),
    cursor.slice(0, cursor.length / 2),
    `${cursor}A`,
    `${cursor}.${cursor}`,
    cursor.toUpperCase(),
  ]
  const expectRefused = (reply: Reply, what: string) => {
    assert.equal(reply.status, 400, `${what}: ${reply.body}`)
    assert.equal(reply.json.code, 'invalid_request', what)
    assert.deepEqual(
      reply.json.errors.map((error: { path: string }) => error.path),
      ['/cursor'],
      what,
    )
  }
  const garbage = ['x', 'bm9wZQ.abc', 'AAAA', '____', 'x'.repeat(1999), '{"p":[1]}', '%00']
  const listCases = [
    ...variants(tasks),
    ...garbage,
    filtered, // another filter
    bobs, // another token
    feed, // another route
    searched,
    foreignSecret, // another service secret
  ]
  for (const cursor of listCases)
    expectRefused(await as('alice-key').get(`/v1/tasks?limit=1&cursor=${enc(cursor)}`), cursor)
  for (const cursor of [...variants(feed), ...garbage, tasks, (await now('bob-key')) as string])
    expectRefused(await as('alice-key').get(`/v1/changes?cursor=${enc(cursor)}`), cursor)
  expectRefused(
    await as('alice-key').get(`/v1/changes?cursor=${enc(feed)}&types=task.created`),
    'the feed with other filters',
  )
  for (const cursor of [...variants(searched), ...garbage, tasks])
    expectRefused(
      await as('alice-key').post('/v1/search', { query: 'task', limit: 1, cursor }),
      cursor,
    )
  expectRefused(
    await as('alice-key').post('/v1/search', { query: 'other', limit: 1, cursor: searched }),
    'search with another query',
  )
  const untouched = await as('alice-key').get(`/v1/tasks?limit=1&cursor=${enc(tasks)}`)
  assert.equal(untouched.status, 200, 'the cursor itself still works')
})

test('cursors work on every instance that shares the service secret, and after a restart', async () => {
  const other = await instance(TEST_SECRET)
  const here = as('alice-key')
  const there = client(other, tokenOf(ws, 'alice-key'))
  const first = await here.get('/v1/tasks?limit=1')
  const second = await there.get(`/v1/tasks?limit=1&cursor=${enc(first.json.next_cursor)}`)
  assert.equal(second.status, 200, second.body)
  const secondHere = await here.get(`/v1/tasks?limit=1&cursor=${enc(first.json.next_cursor)}`)
  assert.deepEqual(second.json.data, secondHere.json.data)
  assert.notEqual(second.json.data[0].id, first.json.data[0].id)
  const feed = await now('alice-key')
  const task = await here.post('/v1/tasks', { title: 'Seen there', project_id: id('open') })
  const followed = await there.get(`/v1/changes?cursor=${enc(feed)}`)
  assert.deepEqual(
    followed.json.data.map((change: { resource_id: string }) => change.resource_id),
    [task.json.id],
  )
})
