/**
 * `npm run bench:webhooks`: webhook delivery on PostgreSQL with one and with two `workgraph worker`
 * processes. A burst of events is written to the outbox at once (throughput, events per second
 * from commit to the receiver's acknowledgement), then a steady trickle (commit-to-delivery
 * latency when nothing queues). The yardstick, in the same run, is how fast this process alone
 * can POST to the same receiver (bench/README.md).
 *
 *   npm run bench:webhooks -- [--events 5000] [--rate 50] [--seconds 5]
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { request } from 'undici'
import { scaledBundle } from '../packages/server/src/bundle/demo/scaled-bundle.ts'
import { openDatabase } from '../packages/server/src/db/connect.ts'
import { newId } from '../packages/server/src/lib/ids.ts'
import { SecretBox } from '../packages/server/src/lib/secret-box.ts'
import { secretContext } from '../packages/server/src/webhooks/endpoint-secrets.ts'
import { newWebhookSecret } from '../packages/server/src/webhooks/webhook-signature.ts'

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '5' },
  },
})
const burstSize = Number(values.events)
const rate = Number(values.rate)
const steadySeconds = Number(values.seconds)
const root = resolve(import.meta.dirname, '..')
const main = join(root, 'packages/server/src/main.ts')
const secret = Buffer.alloc(32, 9).toString('base64')
const log = (line: string) => process.stderr.write(`${line}\n`)

// The receiver: answers 200 at once and notes when each event first arrived.
const arrivals = new Map<string, number>()
let received = 0
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (chunk: Buffer) => chunks.push(chunk))
  req.on('end', () => {
    received++
    const id = req.headers['x-service-event-id']
    if (typeof id === 'string' && !arrivals.has(id)) arrivals.set(id, Date.now())
    res.writeHead(200).end('ok')
  })
})
await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done))
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const admin = new pg.Client({ connectionString: adminUrl })
await admin.connect()
const name = `wg_bench_hooks_${process.pid}`
await admin.query(`create database ${name}`)
const url = new URL(adminUrl)
url.pathname = `/${name}`
const databaseUrl = url.toString()

try {
  mkdirSync(join(root, '.tmp'), { recursive: true })
  const bundleFile = join(root, '.tmp', 'bench-webhooks-bundle.json')
  writeFileSync(bundleFile, JSON.stringify(scaledBundle({ scale: 1000, seed: 1 })))
  const imported = spawnSync(
    process.execPath,
    [join(root, 'bench/import-child.ts'), bundleFile, '--database-url', databaseUrl],
    { encoding: 'utf8', env: { ...process.env, WORKGRAPH_SECRET: secret } },
  )
  if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`)
  const { result } = JSON.parse(imported.stdout)
  const ws: string = result.workspace_id
  const owner: string = result.ids.u0
  const handle = await openDatabase({ kind: 'postgres', url: databaseUrl })
  const db = handle.db
  const subject = await db
    .selectFrom('resource_index')
    .select('id')
    .where('workspace_id', '=', ws)
    .where('type', '=', 'task')
    .where('ws_visible', '=', true)
    .executeTakeFirstOrThrow()
  const endpointId = newId('webhook')
  const now = new Date()
  await db
    .insertInto('webhook_endpoints')
    .values({
      workspace_id: ws,
      id: endpointId,
      url: hookUrl,
      description: 'bench',
      event_types: ['task.created'],
      status: 'active',
      owner_id: owner,
      owner_kind: 'person',
      owner_scopes: ['task:read', 'project:read', 'people:read', 'canvas:read'],
      // An endpoint lives while its credential works: bind it to the owner's imported key.
      credential_id: result.api_keys['owner-key'].id,
      secret_sealed: new SecretBox(Buffer.from(secret, 'base64')).seal(
        newWebhookSecret(),
        secretContext(ws, endpointId),
      ),
      created_at: now,
      updated_at: now,
    })
    .execute()

  const writeEvents = async (count: number) => {
    const rows = Array.from({ length: count }, () => ({
      workspace_id: ws,
      id: newId('event'),
      type: 'task.created',
      subject_id: subject.id,
      subject_type: 'task',
      actor_id: owner,
      data: JSON.stringify({ object: { id: subject.id, type: 'task', title: 'Bench' } }),
      created_at: new Date(),
      dispatched_at: null,
    }))
    for (let i = 0; i < rows.length; i += 1000)
      await db
        .insertInto('events')
        .values(rows.slice(i, i + 1000))
        .execute()
    return rows.map((row) => ({ id: row.id, at: row.created_at.getTime() }))
  }
  const waitFor = async (events: { id: string }[]) => {
    const started = Date.now()
    while (!events.every((event) => arrivals.has(event.id))) {
      if (Date.now() - started > 600_000) throw new Error('deliveries stopped arriving')
      await sleep(20)
    }
  }
  const latencies = (events: { id: string; at: number }[]) => {
    const sorted = events
      .map((event) => (arrivals.get(event.id) ?? 0) - event.at)
      .sort((a, b) => a - b)
    const at = (q: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
    return { p50: at(0.5), p99: at(0.99) }
  }

  log('Baseline: this process POSTing to the receiver, 10 at a time, for 3 s…')
  let bare = 0
  const until = Date.now() + 3000
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (Date.now() < until) {
        const answer = await request(hookUrl, { method: 'POST', body: '{}' })
        await answer.body.text()
        bare++
      }
    }),
  )
  const bareRate = bare / 3
  const rows: string[] = []
  for (const workers of [1, 2]) {
    log(
      `${workers} worker(s): burst of ${burstSize} events, then ${rate}/s for ${steadySeconds} s…`,
    )
    const processes: ChildProcess[] = []
    for (let i = 0; i < workers; i++) {
      const child = spawn(process.execPath, [main, 'worker', '--database-url', databaseUrl], {
        env: {
          ...process.env,
          WORKGRAPH_SECRET: secret,
          WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      await new Promise<void>((ready) => child.stdout?.once('data', () => ready()))
      processes.push(child)
    }
    const burstStart = Date.now()
    const burst = await writeEvents(burstSize)
    await waitFor(burst)
    const lastArrival = Math.max(...burst.map((event) => arrivals.get(event.id) ?? 0))
    const perSecond = burstSize / ((lastArrival - burstStart) / 1000)
    const burstLatency = latencies(burst)
    const steady: { id: string; at: number }[] = []
    for (let i = 0; i < rate * steadySeconds; i++) {
      steady.push(...(await writeEvents(1)))
      await sleep(1000 / rate)
    }
    await waitFor(steady)
    const steadyLatency = latencies(steady)
    for (const child of processes) child.kill('SIGTERM')
    await Promise.all(processes.map((child) => new Promise((done) => child.on('exit', done))))
    rows.push(
      `| ${workers} | ${perSecond.toFixed(0)} | ${(perSecond / bareRate).toFixed(3)} | ${burstLatency.p50} | ${burstLatency.p99} | ${steadyLatency.p50} | ${steadyLatency.p99} |`,
    )
  }
  const duplicates = received - arrivals.size - bare
  await handle.close()
  console.log(
    [
      `Webhook delivery on PostgreSQL (one endpoint; receiver answers 200 at once)`,
      ``,
      `Yardstick: this process alone POSTs ${bareRate.toFixed(0)} requests/s to the receiver (10 at a time).`,
      ``,
      `| workers | burst events/s | ÷ yardstick | burst latency p50 ms | p99 ms | at ${rate}/s: latency p50 ms | p99 ms |`,
      `|---|---|---|---|---|---|---|`,
      ...rows,
      ``,
      `Deliveries received twice: ${duplicates}.`,
    ].join('\n'),
  )
} finally {
  receiver.close()
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.end()
}
