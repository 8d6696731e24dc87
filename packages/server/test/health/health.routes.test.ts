import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// `/healthz` and `/readyz` (health/health.routes.ts): public, and what a process manager reads.

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

test('liveness and readiness answer without a token', async () => {
  const anyone = client(t.app)
  assert.deepEqual((await anyone.get('/healthz')).json, { status: 'ok' })
  assert.deepEqual((await anyone.get('/readyz')).json, { status: 'ready' })
})

test('a draining server is alive but not ready: 503 in problem+json', async () => {
  t.deps.lifecycle.draining = true
  try {
    const anyone = client(t.app)
    assert.equal((await anyone.get('/healthz')).status, 200)
    const ready = await anyone.get('/readyz')
    assert.equal(ready.status, 503)
    assert.match(String(ready.headers['content-type']), /^application\/problem\+json/)
    assert.equal(ready.json.code, 'service_unavailable')
  } finally {
    t.deps.lifecycle.draining = false
  }
})
