import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { type CliProcess, freePort, startCli } from '../harness/cli.ts'
import { ENGINE, openTestDatabase, type TestDatabase } from '../harness/test-database.ts'

// The server's connections are ended from PostgreSQL's side while writers run, as a restart, a
// failover or a pooler recycling backends would end them. The embedded database has no server.
const skip = ENGINE !== 'postgres' && 'ending server connections needs PostgreSQL'

// The server's connections carry this name, so the test ends theirs and keeps its own.
const APPLICATION = 'workgraph_outage_test'
const WRITERS = 10

let db: TestDatabase
let ws: ImportResult
let admin: pg.Client
let server: CliProcess
let base: string

before(async () => {
  if (skip) return
  db = await openTestDatabase()
  ws = await importOk(db.db, writableBundle())
  admin = new pg.Client({ connectionString: db.url })
  await admin.connect()
  const url = new URL(db.url as string)
  url.searchParams.set('application_name', APPLICATION)
  const port = await freePort()
  server = startCli(['serve', '--port', String(port), '--database-url', url.toString()], {
    WORKGRAPH_SECRET: randomBytes(32).toString('base64'),
    RATE_LIMIT_WRITES_PER_MINUTE: '100000',
    RATE_LIMIT_READS_PER_MINUTE: '100000',
  })
  await server.waitFor(/listening on/)
  base = `http://127.0.0.1:${port}`
})

after(async () => {
  if (skip) return
  server.child.kill('SIGTERM')
  await server.exit()
  await admin.end()
  await db.close()
})

/** Ends every connection of the server, as `pg_terminate_backend` does to a failed-over primary. */
async function endServerConnections(): Promise<number> {
  const ended = await admin.query(
    'select count(*) filter (where pg_terminate_backend(pid)) as n from pg_stat_activity where application_name = $1',
    [APPLICATION],
  )
  return Number(ended.rows[0].n)
}

/** How many of the server's connections wait for notifications. */
async function listeners(): Promise<number> {
  const found = await admin.query(
    `select 1 from pg_stat_activity where application_name = $1 and query ilike 'listen %'`,
    [APPLICATION],
  )
  return found.rowCount ?? 0
}

interface Answer {
  status: number | 'network error'
  at: number
  problem?: { contentType: string | null; retryAfter: string | null; code?: string }
}

test('ending every database connection under writers: the process lives, answers 503, is ready within 2 s, loses nothing, and a retried key succeeds at once', {
  skip,
}, async (t) => {
  const token = tokenOf(ws, 'alice-key')
  const answers: Answer[] = []
  const acknowledged = new Map<string, string>() // title → task id
  let stop = false
  // When each writer last had a write acknowledged.
  const lastAcknowledged: number[] = []

  // Each writer creates tasks one after another, retrying a failed one with the same key.
  const writer = async (n: number) => {
    for (let i = 0; !stop; i++) {
      const title = `Outage ${n}-${i}`
      for (;;) {
        const response = await fetch(`${base}/v1/tasks`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'idempotency-key': `outage-${n}-${i}`,
          },
          body: JSON.stringify({ title, project_id: ws.ids.open }),
        }).catch(() => null)
        const at = Date.now()
        if (!response) {
          answers.push({ status: 'network error', at })
          break
        }
        const text = await response.text()
        if (response.status === 201) {
          acknowledged.set(title, JSON.parse(text).id)
          lastAcknowledged[n] = at
          answers.push({ status: 201, at })
          break
        }
        answers.push({
          status: response.status,
          at,
          problem: {
            contentType: response.headers.get('content-type'),
            retryAfter: response.headers.get('retry-after'),
            code: JSON.parse(text).code,
          },
        })
        if (response.status !== 503 && response.status !== 409) break
        await sleep(50)
      }
    }
  }

  // The listeners connect in the background after the server starts listening.
  const started = Date.now()
  while ((await listeners()) === 0 && Date.now() - started < 5000) await sleep(50)
  const listening = await listeners()
  assert.ok(listening > 0, `the server never listened for outbox events:\n${server.output()}`)
  const writers = Array.from({ length: WRITERS }, (_, n) => writer(n))
  // The outage starts once every writer is writing (so the server holds its connections).
  const everyWriterSince = async (since: number) => {
    const deadline = Date.now() + 10_000
    while (Date.now() < deadline) {
      const writing = Array.from({ length: WRITERS }, (_, n) => lastAcknowledged[n] ?? 0)
      if (writing.every((at) => at > since)) return
      await sleep(20)
    }
  }
  await everyWriterSince(0)
  // An outage of a second: every connection the server has or opens is ended at once.
  const outageStart = Date.now()
  let ended = 0
  while (Date.now() - outageStart < 1000) {
    ended += await endServerConnections()
    await sleep(20)
  }
  const outageEnd = Date.now()

  let readyAt: number | undefined
  while (Date.now() - outageEnd < 5000) {
    const ready = await fetch(`${base}/readyz`).catch(() => null)
    if (ready?.status === 200) {
      readyAt = Date.now()
      break
    }
    await sleep(20)
  }
  // Writers retrying through the outage each get a write acknowledged after it.
  await everyWriterSince(readyAt ?? Date.now())
  stop = true
  await Promise.all(writers)

  assert.equal(server.child.exitCode, null, `the server exited:\n${server.output()}`)
  assert.equal(server.child.signalCode, null, `the server was killed:\n${server.output()}`)
  assert.ok(ended > WRITERS / 2, `only ${ended} connections were ended`)
  assert.ok(readyAt !== undefined, 'not ready 5 s after the outage')
  assert.ok(readyAt - outageEnd < 2000, `ready ${readyAt - outageEnd} ms after the outage`)

  const counts = new Map<string, number>()
  for (const answer of answers)
    counts.set(String(answer.status), (counts.get(String(answer.status)) ?? 0) + 1)
  const summary = JSON.stringify(Object.fromEntries(counts))
  t.diagnostic(
    `answers ${summary}; ${ended} connections ended; ready ${readyAt - outageEnd} ms after the outage`,
  )
  assert.deepEqual(
    [...counts.keys()].filter((status) => status !== '201' && status !== '503'),
    [],
    `only 201 and 503 may answer (a retry of a failed key is never turned away): ${summary}`,
  )
  const unavailable = answers.filter((answer) => answer.status === 503)
  assert.ok(unavailable.length > 0, `the outage was never seen: ${summary}`)
  // Only while the database was away (and the requests it caught in flight).
  for (const answer of unavailable) {
    assert.match(answer.problem?.contentType ?? '', /^application\/problem\+json/)
    assert.equal(answer.problem?.code, 'service_unavailable')
    assert.ok(Number(answer.problem?.retryAfter) > 0)
    assert.ok(answer.at >= outageStart && answer.at < (readyAt as number) + 2000, summary)
  }

  // Every acknowledged write is there exactly once, with one event, and nothing else is.
  const tasks = await db.db
    .selectFrom('tasks')
    .select(['id', 'title'])
    .where('title', 'like', 'Outage %')
    .execute()
  assert.equal(tasks.length, acknowledged.size, 'a write the writers never saw acknowledged')
  for (const task of tasks) assert.equal(acknowledged.get(task.title), task.id)
  const events = await db.db
    .selectFrom('events')
    .select(({ fn }) => ['subject_id', fn.countAll<number>().as('n')])
    .where('type', '=', 'task.created')
    .where(
      'subject_id',
      'in',
      tasks.map((task) => task.id),
    )
    .groupBy('subject_id')
    .execute()
  assert.equal(events.length, tasks.length)
  assert.ok(events.every((event) => Number(event.n) === 1))

  // The outbox listeners came back on their own.
  const listenDeadline = Date.now() + 3000
  while ((await listeners()) < listening && Date.now() < listenDeadline) await sleep(50)
  assert.equal(await listeners(), listening, 'an outbox listener did not reconnect')
})
