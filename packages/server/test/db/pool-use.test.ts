import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { PGlite } from '@electric-sql/pglite'
import { createPgConfig } from '@electric-sql/pglite/node-postgres'
import pg from 'pg'
import { PoolUse } from '../../src/db/pool-use.ts'

// The pool Kysely is given times every checkout and tells a wait that ran out from one that got
// a connection (docs/operations.md, "Metrics": workgraph_db_pool_*).

let pglite: PGlite
let pool: pg.Pool
before(async () => {
  pglite = await PGlite.create()
  pool = new pg.Pool({ ...createPgConfig(pglite), max: 1, connectionTimeoutMillis: 100 })
})
after(async () => {
  await pool.end()
  await pglite.close()
})

test('each checkout reports its wait: acquired when it got a connection, timed_out when not', async () => {
  const use = new PoolUse(pool)
  const heard: Array<[number, string]> = []
  const stop = use.onCheckout((seconds, outcome) => heard.push([seconds, outcome]))
  const kysely = use.forKysely()
  const held = await kysely.connect()
  assert.deepEqual(
    heard.map(([, outcome]) => outcome),
    ['acquired'],
  )
  assert.equal(use.max, 1)
  assert.equal(use.open, 1)
  assert.equal(use.idle, 0)
  // The one connection is held: the next checkout queues, then gives up after its timeout.
  const waiting = kysely.connect()
  assert.equal(use.waiting, 1)
  await assert.rejects(waiting, /timeout exceeded/)
  assert.equal(heard[1]?.[1], 'timed_out')
  assert.ok((heard[1]?.[0] ?? 0) >= 0.09, `waited ${heard[1]?.[0]} s`)
  ;(held as pg.PoolClient).release()
  assert.equal(use.idle, 1)
  stop()
  ;((await kysely.connect()) as pg.PoolClient).release()
  assert.equal(heard.length, 2, 'a stopped listener hears nothing more')
})
