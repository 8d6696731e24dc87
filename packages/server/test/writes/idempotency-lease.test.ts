import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { setTimeout as pause } from 'node:timers/promises'
import pg from 'pg'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RENEW_MS } from '../../src/writes/idempotency-store.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { ENGINE } from '../harness/test-database.ts'

// A claim lapses soon after its process dies (docs/api.md, "Idempotency keys"), so a live write
// slower than the lease must renew it, or a retry would take its key over and the first write
// would roll back. The write is held between its claim and its completion by a lock on `tasks`
// taken from another connection; PGlite has only one connection, so nothing can take a key over
// while a write holds it.
const skip = ENGINE !== 'postgres' && 'holding a write from another connection needs PostgreSQL'

let t: TestApp
let ws: ImportResult
let locker: pg.Client

before(async () => {
  if (skip) return
  t = await startTestApp()
  ws = await importOk(t.db.db, writableBundle())
  locker = new pg.Client({ connectionString: t.db.url })
  await locker.connect()
})
after(async () => {
  if (skip) return
  await locker.end()
  await t.close()
})

const as = (key: string) => client(t.app, tokenOf(ws, key))

/** When the key's claim lapses, once it is in the database. */
async function claimedUntil(key: string): Promise<Date | undefined> {
  const row = await t.db.db
    .selectFrom('idempotency_keys')
    .select('locked_until')
    .where('key', '=', key)
    .executeTakeFirst()
  return row?.locked_until
}

test('a write slower than the lease keeps its key: a retry meanwhile is told it runs, then replays', {
  skip,
}, async () => {
  const key = 'slower-than-the-lease'
  const body = { title: 'Slow but sure', project_id: ws.ids.open }
  await locker.query('begin')
  await locker.query('lock table tasks in share row exclusive mode')
  const first = as('alice-key').post('/v1/tasks', body, { 'idempotency-key': key })
  while (!(await claimedUntil(key))) await pause(20)
  // The lease runs out on the clock while the write waits for its insert.
  t.clock.advance(IDEMPOTENCY_LEASE_MS + 1000)
  const deadline = Date.now() + 3 * IDEMPOTENCY_RENEW_MS
  while (((await claimedUntil(key)) as Date) <= t.clock.now()) {
    assert.ok(Date.now() < deadline, 'the running write never renewed its claim')
    await pause(50)
  }
  const retry = await as('alice-key').post('/v1/tasks', body, { 'idempotency-key': key })
  assert.equal(retry.status, 409, retry.body)
  assert.equal(retry.json.code, 'idempotency_key_in_use')
  await locker.query('commit')
  const answer = await first
  assert.equal(answer.status, 201, answer.body)
  const again = await as('alice-key').post('/v1/tasks', body, { 'idempotency-key': key })
  assert.equal(again.status, 201, again.body)
  assert.equal(again.headers['idempotent-replayed'], 'true')
  assert.equal(again.body, answer.body)
  const tasks = await t.db.db
    .selectFrom('tasks')
    .select('id')
    .where('title', '=', body.title)
    .execute()
  assert.equal(tasks.length, 1)
})
