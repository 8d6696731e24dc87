/**
 * `npm run bench:webhooks`: webhook delivery on PostgreSQL with one and with two `workgraph worker`
 * processes, to `--endpoints` endpoints (each its own receiver port in this process). A burst of
 * deliveries is committed to the outbox at once (throughput, deliveries per second from commit to
 * the receiver's acknowledgement), then a steady trickle (commit-to-delivery latency when nothing
 * queues). Every event goes to every endpoint; a delivery is one event acknowledged by one
 * endpoint. The yardstick, in the same run, is how fast this process alone can POST to the same
 * receivers (bench/README.md).
 *
 *   npm run bench:webhooks -- [--endpoints 20] [--events 5000] [--rate 50] [--seconds 5]
 *                             [--workers 1,2] [--profile] [--count-queries]
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
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
import { deliveryKey, startReceivers } from './webhook-receivers.ts'

const { values } = parseArgs({
  options: {
    endpoints: { type: 'string', default: '20' },
    events: { type: 'string', default: '5000' },
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '5' },
    workers: { type: 'string', default: '1,2' },
    profile: { type: 'boolean', default: false },
    'count-queries': { type: 'boolean', default: false },
  },
})
const endpointCount = Number(values.endpoints)
// Both counts are in deliveries; each event makes one per endpoint.
const burstEvents = Math.ceil(Number(values.events) / endpointCount)
const burstSize = burstEvents * endpointCount
const rate = Number(values.rate)
const steadySeconds = Number(values.seconds)
const workerCounts = values.workers.split(',').map(Number)
const root = resolve(import.meta.dirname, '..')
const main = join(root, 'packages/server/src/main.ts')
const tmp = join(root, '.tmp')
const secret = Buffer.alloc(32, 9).toString('base64')
const log = (line: string) => process.stderr.write(`${line}\n`)

const receivers = await startReceivers(endpointCount)
const { arrivals } = receivers

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const admin = new pg.Client({ connectionString: adminUrl })
await admin.connect()
const name = `wg_bench_hooks_${process.pid}`
await admin.query(`create database ${name}`)
const url = new URL(adminUrl)
url.pathname = `/${name}`
const databaseUrl = url.toString()
// User and system CPU of a process so far (Linux; 0 elsewhere), from /proc in clock ticks.
const cpuMsOf = (pid: number | undefined) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return 0
  }
}
const commits = async () => {
  const { rows } = await admin.query(
    'select xact_commit::int as n from pg_stat_database where datname = $1',
    [name],
  )
  return Number(rows[0]?.n ?? 0)
}

try {
  mkdirSync(tmp, { recursive: true })
  const bundleFile = join(tmp, 'bench-webhooks-bundle.json')
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
  const box = new SecretBox(Buffer.from(secret, 'base64'))
  const now = new Date()
  const endpointIds = receivers.urls.map(() => newId('webhook'))
  await db
    .insertInto('webhook_endpoints')
    .values(
      receivers.urls.map((hookUrl, i) => ({
        workspace_id: ws,
        id: endpointIds[i] as string,
        url: hookUrl,
        description: `bench ${i}`,
        event_types: ['task.created'],
        status: 'active' as const,
        owner_id: owner,
        owner_kind: 'person' as const,
        owner_scopes: ['task:read', 'project:read', 'people:read', 'canvas:read'],
        // An endpoint lives while its credential works: bind it to the owner's imported key.
        credential_id: result.api_keys['owner-key'].id,
        secret_sealed: box.seal(newWebhookSecret(), secretContext(ws, endpointIds[i] as string)),
        created_at: now,
        updated_at: now,
      })),
    )
    .execute()
  // Which endpoint a receiver URL belongs to is its index; a delivery is (event, endpoint).
  const keysOf = (events: { id: string; at: number }[]) =>
    events.flatMap((event) =>
      receivers.urls.map((_, endpoint) => ({ key: deliveryKey(event.id, endpoint), at: event.at })),
    )

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
    return keysOf(rows.map((row) => ({ id: row.id, at: row.created_at.getTime() })))
  }
  const waitFor = async (deliveries: { key: string }[]) => {
    const started = Date.now()
    while (!deliveries.every((delivery) => arrivals.has(delivery.key))) {
      if (Date.now() - started > 600_000) throw new Error('deliveries stopped arriving')
      await sleep(20)
    }
  }
  const latencies = (deliveries: { key: string; at: number }[]) => {
    const sorted = deliveries
      .map((delivery) => (arrivals.get(delivery.key) ?? 0) - delivery.at)
      .sort((a, b) => a - b)
    const at = (q: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
    return { p50: at(0.5), p99: at(0.99) }
  }

  log('Baseline: this process POSTing to the receivers, 10 at a time, for 3 s…')
  let bare = 0
  const until = Date.now() + 3000
  await Promise.all(
    Array.from({ length: 10 }, async (_, lane) => {
      while (Date.now() < until) {
        const target = receivers.urls[(lane + bare) % receivers.urls.length] as string
        const answer = await request(target, { method: 'POST', body: '{}' })
        await answer.body.text()
        bare++
      }
    }),
  )
  const bareRate = bare / 3
  const rows: string[] = []
  const rates = new Map<number, number>()
  const queryShapes: string[] = []
  for (const workers of workerCounts) {
    log(
      `${workers} worker(s), ${endpointCount} endpoint(s): burst of ${burstSize} deliveries, ` +
        `then ${rate}/s for ${steadySeconds} s…`,
    )
    const receivedBefore = receivers.received()
    const arrivedBefore = arrivals.size
    const commitsBefore = await commits()
    const processes: ChildProcess[] = []
    const queryLogs: string[] = []
    for (let i = 0; i < workers; i++) {
      const queryLog = join(tmp, `bench-webhooks-queries-${workers}-${i}.json`)
      queryLogs.push(queryLog)
      const nodeArgs = [
        ...(values.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(tmp, 'prof')}`] : []),
        ...(values['count-queries']
          ? ['--import', join(root, 'bench/webhook-query-count.ts')]
          : []),
      ]
      const child = spawn(
        process.execPath,
        [...nodeArgs, main, 'worker', '--database-url', databaseUrl],
        {
          env: {
            ...process.env,
            WORKGRAPH_SECRET: secret,
            WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true',
            LOG_LEVEL: 'warn',
            WG_BENCH_QUERY_LOG: queryLog,
          },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      )
      await new Promise<void>((ready) => child.stdout?.once('data', () => ready()))
      processes.push(child)
    }
    const cpuBefore = processes.reduce((sum, child) => sum + cpuMsOf(child.pid), 0)
    const burstStart = Date.now()
    const burst = await writeEvents(burstEvents)
    await waitFor(burst)
    const lastArrival = Math.max(...burst.map((delivery) => arrivals.get(delivery.key) ?? 0))
    const perSecond = burstSize / ((lastArrival - burstStart) / 1000)
    rates.set(workers, perSecond)
    const burstLatency = latencies(burst)
    const steady: { key: string; at: number }[] = []
    // One event every `endpoints / rate` seconds makes `rate` deliveries a second.
    const steadyEvents = Math.max(1, Math.round((rate * steadySeconds) / endpointCount))
    for (let i = 0; i < steadyEvents; i++) {
      steady.push(...(await writeEvents(1)))
      await sleep((1000 * endpointCount) / rate)
    }
    await waitFor(steady)
    const steadyLatency = latencies(steady)
    // CPU the workers spent delivering (start-up left out), read before they stop: what a delivery costs on a busy machine.
    const cpuMs = processes.reduce((sum, child) => sum + cpuMsOf(child.pid), 0) - cpuBefore
    for (const child of processes) child.kill('SIGTERM')
    await Promise.all(processes.map((child) => new Promise((done) => child.on('exit', done))))
    // Backends report their counts when their connection closes.
    await sleep(1500)
    const delivered = arrivals.size - arrivedBefore
    const duplicates = receivers.received() - receivedBefore - delivered
    const perDelivery = (await commits()) - commitsBefore
    if (values['count-queries']) {
      const counts = new Map<string, number>()
      for (const file of queryLogs)
        for (const [shape, n] of Object.entries(
          JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>,
        ))
          counts.set(shape, (counts.get(shape) ?? 0) + n)
      const total = [...counts.values()].reduce((a, b) => a + b, 0)
      queryShapes.push(
        `${workers} worker(s): ${(total / delivered).toFixed(2)} statements per delivery`,
        ...[...counts]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 15)
          .map(([shape, n]) => `  ${(n / delivered).toFixed(3)}  ${shape}`),
      )
    }
    rows.push(
      `| ${workers} | ${perSecond.toFixed(0)} | ${(perSecond / bareRate).toFixed(3)} | ${burstLatency.p50} | ${burstLatency.p99} | ${steadyLatency.p50} | ${steadyLatency.p99} | ${duplicates} | ${(perDelivery / delivered).toFixed(2)} | ${(cpuMs / delivered).toFixed(2)} |`,
    )
  }
  await handle.close()
  const [one, two] = [rates.get(1), rates.get(2)]
  console.log(
    [
      `Webhook delivery on PostgreSQL (${endpointCount} endpoint(s), each its own receiver port; receivers answer 200 at once)`,
      ``,
      `Yardstick: this process alone POSTs ${bareRate.toFixed(0)} requests/s to the receivers (10 at a time).`,
      ``,
      `| workers | burst deliveries/s | ÷ yardstick | burst latency p50 ms | p99 ms | at ${rate}/s: latency p50 ms | p99 ms | received twice | transactions per delivery | worker CPU ms per delivery |`,
      `|---|---|---|---|---|---|---|---|---|---|`,
      ...rows,
      ...(one && two ? [``, `Two workers ÷ one: ${(two / one).toFixed(2)}.`] : []),
      ...(queryShapes.length > 0 ? [``, 'Statements sent, per delivery:', ...queryShapes] : []),
    ].join('\n'),
  )
} finally {
  await receivers.close()
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.end()
}
