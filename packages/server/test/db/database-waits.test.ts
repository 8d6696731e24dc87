import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import pg from 'pg'
import { toProblem } from '../../src/api/problems.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.ts'
import { importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { ENGINE, openTestDatabase, type TestDatabase } from '../harness/test-database.ts'

// Every wait on the database is bounded (docs/configuration.md, "Bounded waits"): a table locked
// by someone else, a pool with no connection free or a statement that runs long ends in a 503
// with Retry-After, never in a request that hangs, and /readyz answers within a second.

const skip = ENGINE !== 'postgres' && 'locks held by another session need PostgreSQL'
const WAITS = {
  statementTimeoutMs: 400,
  lockTimeoutMs: 400,
  idleInTransactionTimeoutMs: 5_000,
  poolWaitMs: 600,
}

let db: TestDatabase
let handle: DatabaseHandle
let t: TestApp
let ws: ImportResult
before(async () => {
  if (skip) return
  db = await openTestDatabase()
  handle = await openDatabase({
    kind: 'postgres',
    url: db.url as string,
    waits: WAITS,
    poolSize: 4,
  })
  t = await startTestApp({ database: { ...handle, url: db.url } })
  ws = await importOk(t.db.db, smallBundle())
})
after(async () => {
  if (skip) return
  await t.close()
  await handle.close()
  await db.close()
})

/** An outside session holding an exclusive lock on a table until released. */
async function lockTable(table: string): Promise<() => Promise<void>> {
  const outsider = new pg.Client({ connectionString: db.url })
  await outsider.connect()
  await outsider.query('begin')
  await outsider.query(`lock table ${table} in access exclusive mode`)
  return async () => {
    await outsider.query('rollback')
    await outsider.end()
  }
}

const timed = async <T>(work: () => Promise<T>) => {
  const started = performance.now()
  const value = await work()
  return { value, ms: performance.now() - started }
}

test('a table locked by another session: requests end in 503 with Retry-After, all of them, soon', {
  skip,
}, async () => {
  const release = await lockTable('tasks')
  try {
    const api = client(t.app, tokenOf(ws, 'alice-key'))
    // More requests than the pool has connections: the last ones wait for the pool, boundedly.
    const { value: replies, ms } = await timed(() =>
      Promise.all(Array.from({ length: 12 }, () => api.get('/v1/tasks'))),
    )
    for (const reply of replies) {
      assert.equal(reply.status, 503, reply.body)
      assert.equal(reply.json.code, 'service_unavailable')
      assert.ok(Number(reply.headers['retry-after']) >= 1)
    }
    assert.ok(ms < 5_000, `${ms} ms`)
    // Readiness answers within a second all the while.
    const ready = await timed(() => client(t.app).get('/readyz'))
    assert.ok(ready.ms < 1_200, `${ready.ms} ms`)
  } finally {
    await release()
  }
  assert.equal((await client(t.app, tokenOf(ws, 'alice-key')).get('/v1/tasks')).status, 200)
})

test('a pool with no connection free: /readyz says not ready within a second', {
  skip,
}, async () => {
  const held: (() => void)[] = []
  const holders = Array.from({ length: 4 }, () =>
    handle.db.connection().execute(
      (connection) =>
        new Promise<void>((resolve) => {
          held.push(resolve)
          void sql`select 1`.execute(connection)
        }),
    ),
  )
  while (held.length < 4) await new Promise((resolve) => setTimeout(resolve, 10))
  try {
    const ready = await timed(() => client(t.app).get('/readyz'))
    assert.equal(ready.value.status, 503, ready.value.body)
    assert.ok(ready.ms < 1_200, `${ready.ms} ms`)
  } finally {
    for (const resolve of held) resolve()
    await Promise.all(holders)
  }
  assert.equal((await client(t.app).get('/readyz')).status, 200)
})

test('a statement past its timeout is a 503 with Retry-After, naming no internals', {
  skip,
}, async () => {
  const error = await sql`select pg_sleep(2)`.execute(handle.db).then(
    () => null,
    (failure: unknown) => failure,
  )
  const problem = toProblem(error)
  assert.equal(problem.status, 503)
  assert.match(problem.message, /took too long/)
  assert.ok(Number(problem.extras.headers?.['retry-after']) >= 1)
})
