import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// `GET /metrics` (docs/operations.md, "Metrics"): there only when METRICS_TOKEN is set, and then
// only for that token; requests counted by route pattern, the outbox read from the database.

const METRICS_TOKEN = 'scrape-secret-of-the-test'
let on: TestApp
let off: TestApp
let ws: ImportResult
before(async () => {
  on = await startTestApp({ env: { METRICS_TOKEN } })
  off = await startTestApp()
  ws = await importOk(on.db.db, writableBundle())
})
after(async () => {
  await on.close()
  await off.close()
})

const scrape = (token?: string) => client(on.app, token).get('/metrics')

test('without METRICS_TOKEN there is no /metrics, the same 404 as any unknown path', async () => {
  const metrics = await client(off.app, METRICS_TOKEN).get('/metrics')
  const unknown = await client(off.app, METRICS_TOKEN).get('/nothing-here')
  assert.equal(metrics.status, 404)
  assert.deepEqual(
    { ...metrics.json, request_id: null, detail: null },
    { ...unknown.json, request_id: null, detail: null },
  )
})

test('only the metrics token reads them: none, a wrong one or an API key is a 401', async () => {
  for (const token of [undefined, 'scrape-secret-of-the-tesT', tokenOf(ws, 'alice-key')]) {
    const reply = await scrape(token)
    assert.equal(reply.status, 401, String(token))
    assert.equal(reply.json.code, 'unauthenticated')
    assert.doesNotMatch(reply.body, /workgraph_/)
  }
  const reply = await scrape(METRICS_TOKEN)
  assert.equal(reply.status, 200)
  assert.match(String(reply.headers['content-type']), /^text\/plain; version=0\.0\.4/)
  assert.equal(reply.headers['cache-control'], 'no-store')
  assert.match(reply.body, /^workgraph_process_resident_memory_bytes \d+/m)
  assert.match(reply.body, /^workgraph_nodejs_eventloop_lag_seconds /m)
})

test('requests are counted and timed by route pattern and status, never by path', async () => {
  const alice = client(on.app, tokenOf(ws, 'alice-key'))
  const task = ws.ids['t-open'] as string
  assert.equal((await alice.get(`/v1/resources/${task}`)).status, 200)
  assert.equal((await alice.get('/v1/resources/tsk_00000000000000000000000000')).status, 404)
  const body = (await scrape(METRICS_TOKEN)).body
  assert.match(
    body,
    /^workgraph_http_requests_total\{method="GET",route="\/v1\/resources\/:id",status="200"\} 1$/m,
  )
  assert.match(
    body,
    /^workgraph_http_requests_total\{method="GET",route="\/v1\/resources\/:id",status="404"\} 1$/m,
  )
  assert.match(
    body,
    /^workgraph_http_request_duration_seconds_count\{method="GET",route="\/v1\/resources\/:id"\} 2$/m,
  )
  assert.ok(!body.includes(task), 'no id in a label')
  // Requests handed to the authorization server are counted too, by their route.
  assert.equal((await alice.get('/.well-known/oauth-authorization-server')).status, 200)
  assert.match(
    (await scrape(METRICS_TOKEN)).body,
    /^workgraph_http_requests_total\{method="GET",route="\/\.well-known\/oauth-authorization-server",status="200"\} 1$/m,
  )
  // A path no route has is one series, whatever was asked.
  await alice.get('/v1/no/such/path')
  assert.match(
    (await scrape(METRICS_TOKEN)).body,
    /^workgraph_http_requests_total\{method="GET",route="unmatched",status="404"\} 1$/m,
  )
})

test('the outbox gauges count the events no dispatcher has taken, and the oldest one’s age', async () => {
  const pending = async () => {
    const body = (await scrape(METRICS_TOKEN)).body
    return {
      events: Number(/^workgraph_outbox_pending_events (\d+)$/m.exec(body)?.[1]),
      oldest: Number(/^workgraph_outbox_oldest_pending_seconds (\S+)$/m.exec(body)?.[1]),
    }
  }
  const before = await pending()
  const made = await client(on.app, tokenOf(ws, 'alice-key')).post('/v1/tasks', {
    title: 'Counted in the outbox',
    project_id: ws.ids.open,
  })
  assert.equal(made.status, 201, made.body)
  const after = await pending()
  assert.equal(after.events, before.events + 1)
  assert.ok(after.oldest >= 0)
  await on.db.db.updateTable('events').set({ dispatched_at: new Date() }).execute()
  assert.deepEqual(await pending(), { events: 0, oldest: 0 })
})
