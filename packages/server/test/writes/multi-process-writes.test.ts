import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { type CliProcess, freePort, startCli } from '../harness/cli.ts'
import { ENGINE, openTestDatabase, type TestDatabase } from '../harness/test-database.ts'

// Several instances share one PostgreSQL; the embedded database admits a single process.
const skip = ENGINE !== 'postgres' && 'several processes need PostgreSQL'

let db: TestDatabase
let ws: ImportResult
const servers: { process: CliProcess; base: string }[] = []

before(async () => {
  if (skip) return
  db = await openTestDatabase()
  ws = await importOk(db.db, writableBundle())
  const env = {
    WORKGRAPH_SECRET: randomBytes(32).toString('base64'),
    RATE_LIMIT_READS_PER_MINUTE: '10',
    RATE_LIMIT_WRITES_PER_MINUTE: '1000',
  }
  for (let i = 0; i < 2; i++) {
    const port = await freePort()
    const process = startCli(
      ['serve', '--port', String(port), '--database-url', db.url as string],
      env,
    )
    await process.waitFor(/listening on/)
    servers.push({ process, base: `http://127.0.0.1:${port}` })
  }
})

after(async () => {
  for (const server of servers) {
    server.process.child.kill('SIGTERM')
    await server.process.exit()
  }
  await db?.close()
})

function call(server: number, path: string, token: string, init: RequestInit = {}) {
  return fetch(`${servers[server]?.base}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...(init.headers as object) },
  })
}

test('a burst with one key against two server processes creates one task', { skip }, async () => {
  const token = tokenOf(ws, 'alice-key')
  const body = JSON.stringify({ title: 'Across processes', project_id: ws.ids.open })
  const replies = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const response = await call(i % 2, '/v1/tasks', token, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'idempotency-key': 'burst-1' },
      })
      return {
        status: response.status,
        replayed: response.headers.get('idempotent-replayed') === 'true',
        text: await response.text(),
      }
    }),
  )
  const fresh = replies.filter((r) => r.status === 201 && !r.replayed)
  assert.equal(fresh.length, 1, JSON.stringify(replies.map((r) => r.status)))
  for (const r of replies) {
    assert.ok(r.status === 409 || (r.status === 201 && (r.replayed || r === fresh[0])))
    if (r.status === 201) assert.equal(r.text, fresh[0]?.text)
  }
  const tasks = await db.db
    .selectFrom('tasks')
    .select('id')
    .where('title', '=', 'Across processes')
    .execute()
  assert.equal(tasks.length, 1)
  const events = await db.db
    .selectFrom('events')
    .select('id')
    .where('subject_id', '=', tasks[0]?.id as string)
    .execute()
  assert.equal(events.length, 1)
})

test('a token spends one rate budget across processes', { skip }, async () => {
  const token = tokenOf(ws, 'bob-key')
  // Stay clear of a minute boundary, where the window (and the count) starts over.
  const seconds = new Date().getUTCSeconds()
  if (seconds > 50) await new Promise((resolve) => setTimeout(resolve, (61 - seconds) * 1000))
  const statuses: number[] = []
  for (let i = 0; i < 12; i++) {
    const response = await call(i % 2, '/v1/workspace', token)
    await response.arrayBuffer()
    statuses.push(response.status)
    if (i === 11) {
      assert.equal(response.headers.get('ratelimit-limit'), '10')
      assert.equal(response.headers.get('ratelimit-remaining'), '0')
      assert.ok(Number(response.headers.get('retry-after')) > 0)
    }
  }
  assert.deepEqual(statuses, [...Array(10).fill(200), 429, 429])
})
