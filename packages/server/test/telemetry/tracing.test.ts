import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { startTracing, type Tracing } from '../../src/telemetry/tracing.ts'
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.ts'
import { importOk, tokenOf, webhookBundle } from '../harness/bundles.ts'
import { type Receiver, startReceiver } from '../harness/receiver.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// Traces (docs/operations.md, "Traces"): turned on by the standard OTEL_* settings, exported over
// OTLP/HTTP to a collector this test runs. A caller's traceparent is honoured, each statement has
// a span, and a webhook attempt joins the trace of the write that caused it and carries it on.

/** One span as OTLP/JSON sends it. */
interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes: { key: string; value: Record<string, unknown> }[]
}

const SERVER = 2
const CLIENT = 3
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736'
const CALLER_SPAN = '00f067aa0ba902b7'

let collector: Server
const exported: OtlpSpan[] = []
let tracing: Tracing
let t: TestApp
let ws: ImportResult
let receiver: Receiver
before(async () => {
  collector = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      const sent = JSON.parse(body)
      for (const resource of sent.resourceSpans ?? [])
        for (const scope of resource.scopeSpans ?? []) exported.push(...scope.spans)
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((done) => collector.listen(0, '127.0.0.1', done))
  const { port } = collector.address() as AddressInfo
  // The exporter reads its settings from the process's environment, as every OTel SDK does.
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${port}`
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json'
  process.env.OTEL_BSP_SCHEDULE_DELAY = '50'
  const started = startTracing(process.env)
  assert.ok(started, 'an OTLP endpoint turns traces on')
  tracing = started
  t = await startTestApp({ tracing, env: { WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' } })
  ws = await importOk(t.db.db, webhookBundle())
  receiver = await startReceiver()
})
after(async () => {
  await receiver?.close()
  await t?.close()
  await tracing?.shutdown()
  collector?.close()
})

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value
  return value === undefined ? undefined : Object.values(value)[0]
}

test('the settings turn traces on only when an OTLP endpoint is named and nothing turns them off', async () => {
  const { tracingRequested } = await import('../../src/telemetry/tracing.ts')
  assert.equal(tracingRequested({}), false)
  assert.equal(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }), true)
  assert.equal(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c/v1/traces' }), true)
  const named = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }
  assert.equal(tracingRequested({ ...named, OTEL_SDK_DISABLED: 'true' }), false)
  assert.equal(tracingRequested({ ...named, OTEL_TRACES_EXPORTER: 'none' }), false)
})

test('a write joins its caller’s trace, its statements are spans, its webhook carries the trace on', async () => {
  const alice = client(t.app, tokenOf(ws, 'alice-key'))
  const hook = await alice.post('/v1/webhooks', { url: `${receiver.url}/traced` })
  assert.equal(hook.status, 201, hook.body)
  const title = 'A title no span may show'
  const made = await alice.post(
    '/v1/tasks',
    { title, project_id: ws.ids.open },
    { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
  )
  assert.equal(made.status, 201, made.body)
  assert.equal((await client(t.app).get('/healthz')).status, 200)
  const dispatcher = new WebhookDispatcher(t.deps, { random: () => 0.5 })
  await dispatcher.drain()
  await dispatcher.stop(0)

  const delivered = receiver.received.find((r) => r.url.endsWith('/traced'))
  assert.ok(delivered, 'the webhook was delivered')
  const sentParent = String(delivered.headers.traceparent)
  assert.match(sentParent, new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`))

  await tracing.shutdown()
  const ours = exported.filter((span) => span.traceId === TRACE_ID)
  const request = ours.find((span) => span.kind === SERVER && span.name === 'request')
  assert.ok(request, 'the request span is in the caller’s trace')
  assert.equal(request.parentSpanId, CALLER_SPAN)
  assert.equal(attribute(request, 'http.route'), '/v1/tasks')
  assert.equal(attribute(request, 'url.path'), '/v1/tasks')

  const statements = ours.filter((span) => attribute(span, 'db.system.name') === 'postgresql')
  assert.ok(statements.length > 0, 'each statement of the write is a span of the trace')
  assert.ok(statements.some((span) => /insert/i.test(String(attribute(span, 'db.query.text')))))
  assert.ok(!JSON.stringify(exported).includes(title), 'no value bound to a statement is exported')

  const attempt = ours.find((span) => span.name === 'webhook task.created')
  assert.ok(attempt, 'the attempt joined the trace of the write that caused it')
  assert.equal(attempt.kind, CLIENT)
  assert.equal(sentParent.split('-')[2], attempt.spanId, 'the receiver gets the attempt’s span')
  assert.equal(attribute(attempt, 'http.response.status_code'), 200)
  assert.equal(attribute(attempt, 'server.address'), '127.0.0.1')
  assert.ok(!JSON.stringify(attempt).includes('/traced'), 'the receiver’s path is not exported')

  assert.ok(
    !exported.some((span) => attribute(span, 'url.path') === '/healthz'),
    'probes are not traced',
  )
})
