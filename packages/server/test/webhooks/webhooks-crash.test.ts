import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { newId } from '../../src/lib/ids.ts'
import { importOk, tokenOf, webhookBundle } from '../harness/bundles.ts'
import { type CliProcess, freePort, startCli } from '../harness/cli.ts'
import { type Receiver, startReceiver } from '../harness/receiver.ts'
import { ENGINE, openTestDatabase, type TestDatabase } from '../harness/test-database.ts'

// Real processes killed with SIGKILL, and two dispatchers at once: both need PostgreSQL.
const skip = ENGINE !== 'postgres' && 'several processes need PostgreSQL'

let db: TestDatabase
let ws: ImportResult
let receiver: Receiver
let endpointId: string
const running: CliProcess[] = []
const env = {
  WORKGRAPH_SECRET: randomBytes(32).toString('base64'),
  WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true',
}

async function serve(): Promise<{ process: CliProcess; base: string }> {
  const port = await freePort()
  const process = startCli(
    ['serve', '--port', String(port), '--database-url', db.url as string],
    env,
  )
  running.push(process)
  await process.waitFor(/listening on/)
  return { process, base: `http://127.0.0.1:${port}` }
}

// A burst straight into the outbox, as committed writes leave it: the dispatcher is under test.
async function burst(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => newId('event'))
  const subject = ws.ids['t-open'] as string
  for (let i = 0; i < ids.length; i += 1000) {
    await db.db
      .insertInto('events')
      .values(
        ids.slice(i, i + 1000).map((id) => ({
          workspace_id: ws.workspace_id,
          id,
          type: 'task.created',
          subject_id: subject,
          subject_type: 'task',
          actor_id: ws.ids.alice as string,
          data: JSON.stringify({ object: { id: subject, type: 'task', title: 'Open task' } }),
          created_at: new Date(),
          dispatched_at: null,
        })),
      )
      .execute()
  }
  return ids
}

async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 120_000,
) {
  const started = Date.now()
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

const eventIds = () => new Set(receiver.received.map((r) => r.json.id as string))

before(async () => {
  if (skip) return
  db = await openTestDatabase()
  ws = await importOk(db.db, webhookBundle())
  receiver = await startReceiver()
  // A little latency keeps deliveries in flight when the kill comes.
  receiver.fallback = (_request, response) => {
    setTimeout(() => response.writeHead(200).end('ok'), 5)
  }
  const server = await serve()
  const created = await fetch(`${server.base}/v1/webhooks`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tokenOf(ws, 'alice-key')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ url: receiver.url }),
  })
  assert.equal(created.status, 201)
  endpointId = ((await created.json()) as { id: string }).id
  server.process.child.kill('SIGTERM')
  await server.process.exit()
})

after(async () => {
  for (const process of running) if (process.child.exitCode === null) process.child.kill('SIGKILL')
  await Promise.all(running.map((process) => process.exit()))
  await receiver?.close()
  await db?.close()
})

test('kill -9 mid-burst of 1,000 events: after a restart every event arrives, only in-flight ones twice', {
  skip,
}, async () => {
  const first = await serve()
  const ids = await burst(1000)
  await until(() => receiver.received.length >= 300, '300 deliveries before the kill')
  first.process.child.kill('SIGKILL')
  await first.process.exit()
  const inFlight = new Set(
    (
      await db.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', endpointId)
        .where('status', '=', 'in_flight')
        .execute()
    ).map((row) => row.id),
  )
  const before = receiver.received.length
  assert.ok(before < 1000, 'the kill came mid-burst')
  // Their leases would run out in a minute; let that minute pass at once.
  await sql`update webhook_deliveries set locked_until = now() - interval '1 second' where status = 'in_flight'`.execute(
    db.db,
  )
  const second = await serve()
  await until(() => ids.every((id) => eventIds().has(id)), 'every event after the restart')
  // Received is not yet recorded: wait until the restarted server has recorded every delivery.
  const unfinished = async () =>
    (
      await db.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', endpointId)
        .where('status', '!=', 'succeeded')
        .execute()
    ).length
  await until(async () => (await unfinished()) === 0, 'every delivery recorded')
  const seen = new Map<string, number>()
  for (const r of receiver.received) {
    const delivery = String(r.headers['x-service-delivery-id'])
    seen.set(delivery, (seen.get(delivery) ?? 0) + 1)
  }
  const repeated = [...seen].filter(([, n]) => n > 1).map(([delivery]) => delivery)
  for (const delivery of repeated)
    assert.ok(inFlight.has(delivery), `${delivery} was not in flight`)
  assert.equal(seen.size, 1000)
  const stuck = await db.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('endpoint_id', '=', endpointId)
    .where('status', '!=', 'succeeded')
    .execute()
  assert.deepEqual(stuck, [])
  console.log(
    `kill -9 after ${before} of 1000 received; ${inFlight.size} in flight at the kill; ${repeated.length} sent twice`,
  )
  second.process.child.kill('SIGTERM')
  assert.equal(await second.process.exit(), 0)
})

test('two worker processes deliver 10,000 events with no attempt made twice', {
  skip,
}, async () => {
  receiver.received.length = 0
  receiver.fallback = (_request, response) => response.writeHead(200).end('ok')
  const workers = [0, 1].map(() => {
    const process = startCli(['worker', '--database-url', db.url as string], env)
    running.push(process)
    return process
  })
  await Promise.all(workers.map((worker) => worker.waitFor(/delivering webhooks/)))
  const started = Date.now()
  const ids = await burst(10_000)
  await until(() => receiver.received.length >= 10_000, '10,000 deliveries', 300_000)
  const seconds = (Date.now() - started) / 1000
  const logged = () =>
    db.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.max('a.attempt').as('max')])
      .where('d.endpoint_id', '=', endpointId)
      .executeTakeFirstOrThrow()
  // Every attempt logged; a delivery made twice would have reached the receiver by then too.
  await until(async () => Number((await logged()).n) >= 11_000, 'every attempt logged')
  assert.equal(receiver.received.length, 10_000, 'no delivery sent twice')
  const got = eventIds()
  assert.ok(ids.every((id) => got.has(id)))
  const attempts = await logged()
  assert.equal(Number(attempts.n), 11_000, '1,000 + 10,000 attempts, each logged once')
  console.log(`two workers: 10,000 deliveries in ${seconds.toFixed(1)} s`)
  for (const worker of workers) worker.child.kill('SIGTERM')
  assert.deepEqual(await Promise.all(workers.map((worker) => worker.exit())), [0, 0])
})
