import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, test } from 'node:test'
import { type CliData, cliData, freePort, startCli } from '../harness/cli.ts'

// `workgraph worker` serves no API, so with METRICS_TOKEN it answers `/metrics` and `/healthz` on
// METRICS_PORT (docs/operations.md, "Metrics"): a real worker process, scraped over HTTP.

const METRICS_TOKEN = 'scrape-secret-of-the-worker'
let data: CliData
before(async () => {
  data = await cliData('wg-worker-metrics-')
})
after(async () => {
  await data?.close()
})

test('a worker with METRICS_TOKEN serves its metrics and health on METRICS_PORT, and only those', async () => {
  const port = await freePort()
  const worker = startCli(['worker', ...data.target], {
    METRICS_TOKEN,
    METRICS_PORT: String(port),
    WORKGRAPH_SECRET: randomBytes(32).toString('base64'),
  })
  try {
    await worker.waitFor(/delivering webhooks/, 60_000)
    const base = `http://127.0.0.1:${port}`
    const scraped = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    })
    assert.equal(scraped.status, 200)
    const body = await scraped.text()
    assert.match(body, /^workgraph_db_pool_max_connections \d+$/m)
    assert.match(body, /^# TYPE workgraph_webhook_deliveries_total counter$/m)
    assert.match(body, /^workgraph_process_resident_memory_bytes \d+/m)

    const refused = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong' } })
    assert.equal(refused.status, 401)
    assert.equal(refused.headers.get('content-type'), 'application/problem+json')
    assert.equal(((await refused.json()) as { code: string }).code, 'unauthenticated')
    assert.equal((await fetch(`${base}/metrics`)).status, 401)

    const health = await fetch(`${base}/healthz`)
    assert.equal(health.status, 200)
    assert.deepEqual(await health.json(), { status: 'ok' })
    const elsewhere = await fetch(`${base}/v1/projects`)
    assert.equal(elsewhere.status, 404)
    assert.equal(((await elsewhere.json()) as { code: string }).code, 'not_found')
    const posted = await fetch(`${base}/metrics`, { method: 'POST' })
    assert.equal(posted.status, 405)
    assert.equal(posted.headers.get('allow'), 'GET, HEAD')
  } finally {
    worker.child.kill('SIGTERM')
  }
  assert.equal(await worker.exit(), 0)
})

test('without METRICS_TOKEN a worker listens on no port', async () => {
  const port = await freePort()
  const worker = startCli(['worker', ...data.target], {
    METRICS_PORT: String(port),
    WORKGRAPH_SECRET: randomBytes(32).toString('base64'),
  })
  try {
    await worker.waitFor(/delivering webhooks/, 60_000)
    await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`))
    assert.doesNotMatch(worker.output(), /Metrics:/)
  } finally {
    worker.child.kill('SIGTERM')
  }
  assert.equal(await worker.exit(), 0)
})
