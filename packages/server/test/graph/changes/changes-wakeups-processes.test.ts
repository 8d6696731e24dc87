import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { setTimeout as pause } from 'node:timers/promises'
import pg from 'pg'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { openDatabase } from '../../../src/db/connect.ts'
import { systemClock } from '../../../src/lib/clock.ts'
import { ALL_READ_SCOPES, importOk, tokenOf, writableBundle } from '../../harness/bundles.ts'
import { pollsWaiting } from '../../harness/polls-waiting.ts'
import { StatementLog } from '../../harness/statement-log.ts'
import { client, type Reply, startTestApp, type TestApp } from '../../harness/test-app.ts'
import { ENGINE, openTestDatabase, type TestDatabase } from '../../harness/test-database.ts'

// Two apps on one PostgreSQL database, each with its own pool, change signal and listener, as two
// server processes are. A poll on one wakes at the NOTIFY of the other's commit, not at a timer;
// a listener that loses its connection misses nothing; the other's revocation of a key ends the
// poll with a 401 when its wait is over.
const skip = ENGINE !== 'postgres' && 'NOTIFY between processes needs PostgreSQL'

const SCAN = 'with scanned as'
const log = new StatementLog()
let db: TestDatabase
let other: TestDatabase
let a: TestApp
let b: TestApp
let ws: ImportResult
let admin: pg.Client

before(async () => {
  if (skip) return
  db = await openTestDatabase()
  ws = await importOk(db.db, writableBundle())
  const env = { DATABASE_URL: db.url as string }
  a = await startTestApp({ database: db, env, plugin: log, clock: systemClock })
  const handle = await openDatabase({ kind: 'postgres', url: db.url as string })
  other = { ...handle, url: db.url }
  b = await startTestApp({ database: other, env, clock: systemClock })
  admin = new pg.Client({ connectionString: db.url })
  await admin.connect()
})

after(async () => {
  if (skip) return
  await a.close()
  await b.close()
  await other.close()
  await admin.end()
  await db.close()
})

const on = (app: TestApp, key: string) => client(app.app, tokenOf(ws, key))
const enc = encodeURIComponent

/** Starts `count` long polls on app A from the feed's end, and lets them reach their wait. */
async function pollsOnA(count: number, seconds: number, token = tokenOf(ws, 'alice-key')) {
  const api = client(a.app, token)
  const cursor = (await api.get('/v1/changes')).json.next_cursor
  const polls = Array.from({ length: count }, () =>
    api.get(`/v1/changes?cursor=${enc(cursor)}&wait=${seconds}`),
  )
  await pollsWaiting(a.deps, ws.workspace_id, count)
  return polls
}

/** Waits until app A listens for changes: its listener's connection has run LISTEN. */
async function listening(): Promise<number> {
  for (;;) {
    const found = await admin.query<{ pid: number }>(
      `select pid from pg_stat_activity
       where datname = current_database() and query ilike 'listen%workgraph_changes%'`,
    )
    const pid = found.rows[0]?.pid
    if (pid !== undefined) return pid
    await pause(50)
  }
}

/** Creates a task through app B, and expects each of A's polls to answer with it alone. */
async function expectTaskOfB(polls: Promise<Reply>[], title: string): Promise<void> {
  const task = await on(b, 'alice-key').post('/v1/tasks', { title, project_id: ws.ids.open })
  assert.equal(task.status, 201, task.body)
  for (const answer of await Promise.all(polls))
    assert.deepEqual(
      answer.json.data.map((change: { resource_id: string }) => change.resource_id),
      [task.json.id],
      answer.body,
    )
}

test('a poll wakes at the commit of another process, and reads nothing before it', {
  skip,
}, async () => {
  const polls = await pollsOnA(3, 20)
  await listening()
  log.clear()
  // Waiting: no re-reads on a timer.
  await pause(1500)
  assert.equal(log.count(SCAN), 0, `${log.count(SCAN)} scans while nothing changed`)
  await expectTaskOfB(polls, 'Made by the other process')
  assert.equal(log.count(SCAN), 3)
})

test('a listener that loses its connection misses nothing', { skip }, async () => {
  const polls = await pollsOnA(2, 20)
  const listener = await listening()
  await admin.query('select pg_terminate_backend($1)', [listener])
  // Written while nobody in A listens: A learns of it from its look at the head, or when it
  // listens again.
  await expectTaskOfB(polls, 'Made while A was deaf')
  assert.notEqual(await listening(), listener)
})

test('a key revoked by another process ends its poll with a 401 when the wait is over', {
  skip,
}, async () => {
  const made = await on(a, 'olive-key').post('/v1/api-keys', {
    name: 'poller',
    scopes: ALL_READ_SCOPES,
  })
  assert.equal(made.status, 201, made.body)
  const [poll] = await pollsOnA(1, 2, made.json.token)
  const revoked = await on(b, 'olive-key').post(`/v1/tokens/${made.json.id}/revoke`)
  assert.equal(revoked.status, 200, revoked.body)
  const answer = (await poll) as Reply
  assert.equal(answer.status, 401, answer.body)
  assert.equal(answer.json.code, 'invalid_token')
})
