import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import {
  ALL_READ_SCOPES,
  ALL_WRITE_SCOPES,
  importOk,
  tokenOf,
  writableBundle,
} from '../harness/bundles.ts'
import { type CliProcess, freePort, startCli } from '../harness/cli.ts'
import { ENGINE, openTestDatabase, type TestDatabase } from '../harness/test-database.ts'

// Two instances on one PostgreSQL, one of them on a machine whose clock is a day ahead (Debian's
// libfaketime, preloaded into that process alone). Time that decides correctness is the
// database's (docs/architecture.md, "Time"): a key acknowledged by one instance is replayed by
// the other, and a key that ends in an hour still works on both.

const skip = ENGINE !== 'postgres' && 'several processes need PostgreSQL'
const FAKETIME = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
].find((path) => existsSync(path))

let db: TestDatabase
let ws: ImportResult
const servers: { process: CliProcess; base: string }[] = []

before(async () => {
  if (skip) return
  assert.ok(FAKETIME, "libfaketime is needed: apt-get install faketime (Debian's package)")
  db = await openTestDatabase()
  ws = await importOk(db.db, writableBundle())
  const secret = randomBytes(32).toString('base64')
  for (const skew of [null, '+25h']) {
    const port = await freePort()
    const process = startCli(
      ['serve', '--port', String(port), '--database-url', db.url as string],
      {
        WORKGRAPH_SECRET: secret,
        ...(skew
          ? { LD_PRELOAD: FAKETIME, FAKETIME: skew, FAKETIME_DONT_FAKE_MONOTONIC: '1' }
          : {}),
      },
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

async function create(
  server: number,
  key: string,
  title: string,
  token = tokenOf(ws, 'alice-key'),
) {
  const response = await fetch(`${servers[server]?.base}/v1/tasks`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': key,
    },
    body: JSON.stringify({ title, project_id: ws.ids.open }),
  })
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed') === 'true',
    body: await response.text(),
  }
}

const tasksTitled = async (title: string) =>
  (await db.db.selectFrom('tasks').select('id').where('title', '=', title).execute()).length

test('the instance a day ahead really is: it says so', { skip }, async () => {
  assert.match(servers[1]?.process.output() ?? '', /clock differs from the database/)
  assert.doesNotMatch(servers[0]?.process.output() ?? '', /clock differs from the database/)
})

test('a key acknowledged by one instance is replayed by the other, both ways', {
  skip,
}, async () => {
  for (const [first, second] of [
    [0, 1],
    [1, 0],
  ] as const) {
    const title = `Skewed ${first}→${second}`
    const made = await create(first, `skew-${first}`, title)
    assert.equal(made.status, 201, made.body)
    const retried = await create(second, `skew-${first}`, title)
    assert.equal(retried.status, 201, retried.body)
    assert.ok(retried.replayed, `the retry through instance ${second} ran again: ${retried.body}`)
    assert.equal(retried.body, made.body)
    assert.equal(await tasksTitled(title), 1)
  }
})

test('a key that ends in an hour works on both instances', { skip }, async () => {
  const made = await fetch(`${servers[0]?.base}/v1/api-keys`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tokenOf(ws, 'olive-key')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      name: 'an hour',
      scopes: [...ALL_READ_SCOPES, ...ALL_WRITE_SCOPES],
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    }),
  })
  const key = (await made.json()) as { token: string }
  assert.equal(made.status, 201, JSON.stringify(key))
  for (const server of [0, 1]) {
    const reply = await create(server, `hour-${server}`, `Within the hour ${server}`, key.token)
    assert.equal(reply.status, 201, `instance ${server}: ${reply.body}`)
  }
})
