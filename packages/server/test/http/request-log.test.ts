import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { summaryOf } from '../../src/http/request-log.ts'
import { createLogger } from '../../src/lib/logger.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

/** An app whose log, at `level`, is collected as parsed lines. */
async function loggedApp(level: string) {
  const lines: Record<string, unknown>[] = []
  const logger = createLogger(level, { write: (line: string) => void lines.push(JSON.parse(line)) })
  const t = await startTestApp({ logger })
  return { t, lines, ws: await importOk(t.db.db, writableBundle()) }
}

let debug: { t: TestApp; lines: Record<string, unknown>[]; ws: ImportResult }
let info: typeof debug

before(async () => {
  debug = await loggedApp('debug')
  info = await loggedApp('info')
})
after(async () => {
  await debug.t.close()
  await info.t.close()
})

test('at debug, each request is one line with method, URL, status and time, and no token', async () => {
  const token = tokenOf(debug.ws, 'alice-key')
  assert.equal((await client(debug.t.app, token).get('/v1/workspace')).status, 200)
  await client(debug.t.app).get('/healthz')
  const requests = debug.lines.filter((line) => line.msg === 'request completed')
  assert.equal(requests.length, 1, 'one line per request; probes are left out')
  const [line] = requests
  assert.deepEqual(
    { method: line?.method, url: line?.url, status: line?.status },
    { method: 'GET', url: '/v1/workspace', status: 200 },
  )
  assert.equal(typeof line?.ms, 'number')
  assert.ok(!debug.lines.some((logged) => logged.msg === 'incoming request'))
  assert.ok(!JSON.stringify(debug.lines).includes(token.slice(8)), 'the token is never logged')
})

test('at info, requests are not logged one by one', async () => {
  const api = client(info.t.app, tokenOf(info.ws, 'alice-key'))
  assert.equal((await api.get('/v1/workspace')).status, 200)
  assert.equal((await api.get('/v1/nothing-here')).status, 404)
  assert.deepEqual(info.lines, [])
})

test('the summary counts requests by status class with latency percentiles', () => {
  const latencies = Array.from({ length: 100 }, (_, i) => i + 1)
  const summary = summaryOf({ byStatus: { '2xx': 98, '4xx': 2 }, latencies })
  assert.deepEqual(summary, {
    requests: 100,
    by_status: { '2xx': 98, '4xx': 2 },
    p50_ms: 51,
    p99_ms: 100,
    max_ms: 100,
  })
})
