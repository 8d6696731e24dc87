import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { prepareImport, writeImport } from '../../src/bundle/import-bundle.ts'
import { allowSignInAttempt } from '../../src/web/sign-in.ts'
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.ts'
import { importOk, smallBundle, tokenOf, webhookBundle } from '../harness/bundles.ts'
import { pollsWaiting } from '../harness/polls-waiting.ts'
import { type Receiver, reply, startReceiver } from '../harness/receiver.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { ENGINE } from '../harness/test-database.ts'

// What the work of a process adds to `GET /metrics` (docs/operations.md, "Metrics"): the
// database pool, webhook deliveries, open waits and rate-limit refusals.

const METRICS_TOKEN = 'scrape-secret-of-the-test'
let t: TestApp
let ws: ImportResult
let receiver: Receiver
let dispatcher: WebhookDispatcher
before(async () => {
  t = await startTestApp({
    env: {
      METRICS_TOKEN,
      WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true',
      RATE_LIMIT_WRITES_PER_MINUTE: '6',
    },
  })
  ws = await importOk(t.db.db, webhookBundle())
  receiver = await startReceiver()
  dispatcher = new WebhookDispatcher(t.deps, { random: () => 0.5 })
})
after(async () => {
  await dispatcher?.stop(0)
  await receiver?.close()
  await t?.close()
})

const alice = () => client(t.app, tokenOf(ws, 'alice-key'))
const scrape = async () => {
  const reply = await client(t.app, METRICS_TOKEN).get('/metrics')
  assert.equal(reply.status, 200)
  return reply.body
}
// The value of one series, or NaN when it is absent.
const seriesValue = (body: string, series: string) => {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? Number.NaN : Number(line.slice(series.length + 1))
}

test('the database pool reports its connections, waiting checkouts and each checkout’s wait', async () => {
  assert.equal((await alice().get('/v1/projects')).status, 200)
  const body = await scrape()
  const max = seriesValue(body, 'workgraph_db_pool_max_connections')
  assert.equal(max, t.db.engine === 'pglite' ? 1 : 10)
  const inUse = seriesValue(body, 'workgraph_db_pool_connections{state="in_use"}')
  const idle = seriesValue(body, 'workgraph_db_pool_connections{state="idle"}')
  assert.ok(inUse >= 0 && idle >= 0 && inUse + idle <= max, `${inUse} + ${idle} ≤ ${max}`)
  assert.equal(seriesValue(body, 'workgraph_db_pool_waiting_checkouts'), 0)
  assert.ok(seriesValue(body, 'workgraph_db_pool_wait_seconds_count') > 0, 'checkouts are timed')
  assert.equal(seriesValue(body, 'workgraph_db_pool_wait_timeouts_total'), 0)
})

test('webhook deliveries are counted by result and their requests timed by outcome', async () => {
  const made = await alice().post('/v1/webhooks', { url: `${receiver.url}/metrics` })
  assert.equal(made.status, 201, made.body)
  receiver.script(reply(500), reply(200))
  const task = await alice().post('/v1/tasks', { title: 'Heard twice', project_id: ws.ids.open })
  assert.equal(task.status, 201, task.body)
  await dispatcher.drain()
  // The first attempt failed and waits for its retry; brought forward, the retry lands.
  await t.db.db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: new Date(0) })
    .execute()
  await dispatcher.drain()
  const body = await scrape()
  assert.equal(seriesValue(body, 'workgraph_webhook_deliveries_total{result="retrying"}'), 1)
  assert.equal(seriesValue(body, 'workgraph_webhook_deliveries_total{result="succeeded"}'), 1)
  assert.equal(
    seriesValue(body, 'workgraph_webhook_attempt_duration_seconds_count{outcome="failed"}'),
    1,
  )
  assert.equal(
    seriesValue(body, 'workgraph_webhook_attempt_duration_seconds_count{outcome="succeeded"}'),
    1,
  )
  assert.equal(receiver.received.length, 2)
})

test('a long poll of the change feed is an open wait while it waits, and not after', async () => {
  const idle = await scrape()
  assert.equal(seriesValue(idle, 'workgraph_open_waits{kind="changes_long_poll"}'), 0)
  assert.equal(seriesValue(idle, 'workgraph_open_waits{kind="mcp_listen"}'), 0)
  const head = await alice().get('/v1/changes')
  assert.equal(head.status, 200, head.body)
  const cursor = encodeURIComponent(head.json.next_cursor)
  const poll = alice().get(`/v1/changes?cursor=${cursor}&wait=20`)
  await pollsWaiting(t.deps, ws.workspace_id)
  assert.equal(seriesValue(await scrape(), 'workgraph_open_waits{kind="changes_long_poll"}'), 1)
  const made = await alice().post('/v1/tasks', { title: 'Wakes the poll', project_id: ws.ids.open })
  assert.equal(made.status, 201, made.body)
  assert.equal((await poll).status, 200)
  assert.equal(seriesValue(await scrape(), 'workgraph_open_waits{kind="changes_long_poll"}'), 0)
})

test('requests turned away by a rate limit are counted by budget', async () => {
  const before = seriesValue(await scrape(), 'workgraph_rate_limit_refusals_total{budget="write"}')
  let refused = 0
  for (let i = 0; i < 8; i++) {
    const made = await alice().post('/v1/tasks', { title: `Burst ${i}`, project_id: ws.ids.open })
    if (made.status === 429) refused++
  }
  assert.ok(refused > 0, 'the burst went over the budget')
  const after = seriesValue(await scrape(), 'workgraph_rate_limit_refusals_total{budget="write"}')
  assert.equal((Number.isNaN(before) ? 0 : before) + refused, after)
})

test('sign-in attempts over their budgets are counted by email and by address', async () => {
  const attempt = () =>
    allowSignInAttempt(t.deps.rateLimits, {
      email: 'someone@example.com',
      ip: '203.0.113.9',
      perMinute: 1,
      now: t.deps.clock.now(),
    })
  assert.equal(await attempt(), true)
  assert.equal(await attempt(), false)
  const body = await scrape()
  assert.equal(seriesValue(body, 'workgraph_rate_limit_refusals_total{budget="sign_in_email"}'), 1)
  assert.equal(
    seriesValue(body, 'workgraph_rate_limit_refusals_total{budget="sign_in_address"}'),
    1,
  )
})

// An import holds the embedded database's one connection: no scrape can run beside it there.
const POSTGRES_ONLY = {
  skip: ENGINE !== 'postgres' && 'the embedded database admits no server beside an import',
}

test(
  'an import running against the database is reported with its rows until it commits',
  POSTGRES_ONLY,
  async () => {
    const idle = await scrape()
    assert.equal(seriesValue(idle, 'workgraph_imports_running'), 0)
    const prepared = prepareImport(smallBundle())
    assert.ok(prepared.ok)
    let during = ''
    await writeImport(t.db.db, prepared.plan, {
      // Still in the import's transaction: nothing of it is committed, its progress is seen.
      beforeCommit: async () => {
        during = await scrape()
      },
    })
    assert.equal(seriesValue(during, 'workgraph_imports_running'), 1)
    const total = seriesValue(during, 'workgraph_import_rows{of="total"}')
    assert.ok(total > 0, during)
    assert.equal(seriesValue(during, 'workgraph_import_rows{of="written"}'), total)
    const after = await scrape()
    assert.equal(seriesValue(after, 'workgraph_imports_running'), 0)
    assert.equal(seriesValue(after, 'workgraph_import_rows{of="total"}'), 0)
  },
)

test('every metric of ours is in the table of docs/operations.md', () => {
  const doc = readFileSync(new URL('../../../../docs/operations.md', import.meta.url), 'utf8')
  const table = new Set([...doc.matchAll(/^\| `(workgraph_[a-z_]+)` \|/gm)].map((m) => m[1]))
  // Node's own figures are documented by their prefixes, as prom-client names them.
  const ours = t.deps.metrics.registry
    .getMetricsAsArray()
    .map((metric) => metric.name)
    .filter((name) => !/^workgraph_(process|nodejs)_/.test(name))
  assert.ok(ours.length >= 13, ours.join(', '))
  assert.deepEqual(
    ours.filter((name) => !table.has(name)),
    [],
  )
})
