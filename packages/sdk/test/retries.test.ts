import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import type { ImportResult } from '../../server/src/bundle/import-bundle.ts'
import { type ListeningApp, startListeningApp } from '../../server/test/harness/browser-app.ts'
import { importOk, tokenOf, writableBundle } from '../../server/test/harness/bundles.ts'
import {
  ConflictError,
  ConnectionError,
  RateLimitError,
  ServiceUnavailableError,
  Workgraph,
  WorkgraphError,
} from '../src/index.ts'
import { backoffMs, retryAfterMs } from '../src/retry-policy.ts'

let t: ListeningApp
let ws: ImportResult
before(async () => {
  t = await startListeningApp()
  ws = await importOk(t.db.db, writableBundle())
})
after(() => t.close())

interface Sent {
  method: string
  url: string
  key: string | null
}

// A fetch that records each request, then answers from `script` (or the real server when the
// script says 'pass').
function scriptedFetch(script: (sent: Sent, n: number) => Response | 'pass' | 'lose-answer') {
  const sent: Sent[] = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const headers = new Headers(init?.headers)
    const request = {
      method: init?.method ?? 'GET',
      url: String(input),
      key: headers.get('idempotency-key'),
    }
    sent.push(request)
    const step = script(request, sent.length)
    if (step === 'pass') return globalThis.fetch(input, init)
    if (step === 'lose-answer') {
      await globalThis.fetch(input, init)
      throw new TypeError('fetch failed: the connection was reset')
    }
    return step
  }
  return { fetch, sent }
}

const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(
    JSON.stringify({
      type: 'about:blank',
      title: code,
      status,
      code,
      detail: code,
      request_id: 'req_test',
    }),
    {
      status,
      headers: { 'content-type': 'application/problem+json', ...headers },
    },
  )

const client = (fetch: typeof globalThis.fetch, maxRetries = 3) =>
  new Workgraph({ apiKey: tokenOf(ws, 'alice-key'), baseUrl: t.origin, fetch, maxRetries })

test('a write whose answer was lost is retried with the same generated key: one task, its answer', async () => {
  const { fetch, sent } = scriptedFetch((_request, n) => (n === 1 ? 'lose-answer' : 'pass'))
  const task = await client(fetch).tasks.create({ title: 'Lost answer', project_id: ws.ids.open })
  assert.equal(sent.length, 2)
  assert.match(sent[0]?.key ?? '', /^sdk_[0-9a-f]{32}$/)
  assert.equal(sent[1]?.key, sent[0]?.key)
  const rows = await t.db.db
    .selectFrom('tasks')
    .where('title', '=', 'Lost answer')
    .select('id')
    .execute()
  assert.deepEqual(
    rows.map((row) => row.id),
    [task.id],
  )
})

test('each write without a key gets a key of its own', async () => {
  const { fetch, sent } = scriptedFetch(() => 'pass')
  const wg = client(fetch)
  await wg.tasks.create({ title: 'First', project_id: ws.ids.open })
  await wg.tasks.create({ title: 'Second', project_id: ws.ids.open })
  assert.notEqual(sent[0]?.key, sent[1]?.key)
})

test('a caller key is sent as given and reused by retries after a 5xx', async () => {
  const { fetch, sent } = scriptedFetch((_r, n) =>
    n === 1 ? problem(503, 'service_unavailable', { 'retry-after': '0' }) : 'pass',
  )
  await client(fetch).comments.create(
    { resource_id: ws.ids['t-open'] as string, body: 'Hi' },
    { idempotencyKey: 'my-key-1' },
  )
  assert.deepEqual(
    sent.map((s) => s.key),
    ['my-key-1', 'my-key-1'],
  )
})

test('409 idempotency_key_in_use is retried after Retry-After; other 409s and 4xx are not', async () => {
  const busy = scriptedFetch((_r, n) =>
    n === 1 ? problem(409, 'idempotency_key_in_use', { 'retry-after': '1' }) : 'pass',
  )
  const started = Date.now()
  await client(busy.fetch).tasks.create({ title: 'After a wait', project_id: ws.ids.open })
  assert.equal(busy.sent.length, 2)
  assert.ok(Date.now() - started >= 950, 'waited for Retry-After')
  const conflict = scriptedFetch(() => problem(409, 'conflict'))
  await assert.rejects(
    client(conflict.fetch).tasks.complete('tsk_x'),
    (error: unknown) => error instanceof ConflictError && error.code === 'conflict',
  )
  assert.equal(conflict.sent.length, 1)
  const invalid = scriptedFetch(() => 'pass')
  await assert.rejects(client(invalid.fetch).tasks.create({ title: '' }), WorkgraphError)
  assert.equal(invalid.sent.length, 1)
})

test('reads are retried on network errors, then fail as ConnectionError', async () => {
  const { fetch, sent } = scriptedFetch(() => {
    throw new TypeError('fetch failed')
  })
  await assert.rejects(client(fetch, 1).projects.list().firstPage(), ConnectionError)
  assert.equal(sent.length, 2)
})

test('a real 429 from the server: a Retry-After over maxRetryAfterMs is not waited for', async () => {
  const limited = await startListeningApp({ RATE_LIMIT_WRITES_PER_MINUTE: '2' })
  try {
    const tokens = await importOk(limited.db.db, writableBundle())
    const wg = new Workgraph({
      apiKey: tokenOf(tokens, 'alice-key'),
      baseUrl: limited.origin,
      maxRetryAfterMs: 1000,
    })
    const create = (title: string) =>
      wg.tasks.create({ title, project_id: tokens.ids.open }).catch((error: unknown) => error)
    // The limit counts per minute of the clock: the three writes start with twenty seconds or
    // more of one left, so they share it and its Retry-After is over a second whatever the time
    // (ten were not enough for a full two-engine run on two busy cores).
    const intoMinute = Date.now() % 60_000
    if (intoMinute > 40_000) await sleep(60_000 - intoMinute)
    await create('One')
    await create('Two')
    const started = Date.now()
    const refused = await create('Three')
    assert.ok(refused instanceof RateLimitError && refused instanceof WorkgraphError)
    assert.equal(refused.status, 429)
    assert.equal(refused.code, 'rate_limited')
    assert.ok(refused.retryAfter !== undefined && refused.retryAfter > 1, 'Retry-After, seconds')
    assert.equal(refused.headers?.get('ratelimit-remaining'), '0')
    assert.ok(Date.now() - started < 5_000, 'a wait of up to a minute was not taken')
  } finally {
    await limited.close()
  }
})

test('a 429 with a short Retry-After is waited for and retried', async () => {
  const { fetch, sent } = scriptedFetch((_r, n) =>
    n === 1 ? problem(429, 'rate_limited', { 'retry-after': '0' }) : 'pass',
  )
  const page = await client(fetch).projects.list().firstPage()
  assert.ok(page.data.length > 0)
  assert.equal(sent.length, 2)
})

test('an aborted signal stops the call and its waits', async () => {
  const { fetch } = scriptedFetch(() =>
    problem(503, 'service_unavailable', { 'retry-after': '30' }),
  )
  const controller = new AbortController()
  setTimeout(() => controller.abort(new Error('stop')), 50)
  await assert.rejects(
    client(fetch).projects.list({}, { signal: controller.signal }).firstPage(),
    /stop/,
  )
})

test('Retry-After is read as seconds or a date; backoff grows and stays jittered within bounds', () => {
  assert.equal(retryAfterMs('2'), 2000)
  assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 4_000), 6_000)
  assert.equal(retryAfterMs('soon'), undefined)
  assert.equal(retryAfterMs(null), undefined)
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((n) => backoffMs(n, () => 1)),
    [500, 1000, 2000, 4000, 8000, 8000],
  )
  assert.deepEqual(
    [0, 1, 2].map((n) => backoffMs(n, () => 0)),
    [250, 500, 1000],
  )
})

test('a 503 past every retry is a ServiceUnavailableError with retryAfter in seconds', async () => {
  const { fetch, sent } = scriptedFetch(() =>
    problem(503, 'service_unavailable', { 'retry-after': '0' }),
  )
  const error = await client(fetch, 1)
    .workspace.get()
    .catch((e: unknown) => e)
  assert.ok(error instanceof ServiceUnavailableError)
  assert.deepEqual([error.status, error.retryAfter, error.requestId], [503, 0, 'req_test'])
  assert.deepEqual(error.body, await problem(503, 'service_unavailable').json())
  assert.equal(sent.length, 2)
})

test('wg.request: a raw write carries a key, retries with it, and answers with lastResponse', async () => {
  const { fetch, sent } = scriptedFetch((_r, n) => (n === 1 ? 'lose-answer' : 'pass'))
  const task = await client(fetch).request<{ id: string; title: string }>({
    method: 'POST',
    path: '/v1/tasks',
    body: { title: 'Raw task', project_id: ws.ids.open },
    idempotencyKey: 'raw-task-1',
  })
  assert.equal(task.title, 'Raw task')
  assert.deepEqual(
    sent.map((s) => s.key),
    ['raw-task-1', 'raw-task-1'],
  )
  assert.equal(task.lastResponse.replayed, true, 'the retry got the stored answer')
  assert.equal(task.lastResponse.status, 201)
  const read = scriptedFetch(() => 'pass')
  await client(read.fetch).request({ method: 'GET', path: '/v1/projects' })
  assert.equal(read.sent[0]?.key, null, 'a read carries no key')
})

test('the OAuth token endpoint is tried once, and a confidential app authenticates with Basic', async () => {
  const seen: Headers[] = []
  const fetch: typeof globalThis.fetch = async (_input, init) => {
    seen.push(new Headers(init?.headers))
    return new Response(JSON.stringify({ error: 'invalid_grant', error_description: 'spent' }), {
      status: 400,
      headers: { 'content-type': 'application/json' },
    })
  }
  const error = await new Workgraph({ baseUrl: t.origin, fetch }).oauth
    .refresh({ refresh_token: 'wg_rt_x', client_id: 'cli_a:b' }, { clientSecret: 's3cret' })
    .catch((e: unknown) => e)
  assert.ok(error instanceof WorkgraphError)
  assert.deepEqual([error.status, error.code, error.detail], [400, 'invalid_grant', 'spent'])
  assert.equal(seen.length, 1)
  assert.equal(seen[0]?.get('authorization'), `Basic ${btoa('cli_a%3Ab:s3cret')}`)
})
