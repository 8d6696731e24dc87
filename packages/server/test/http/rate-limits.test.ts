import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { setTimeout } from 'node:timers/promises'
import { SharedRateLimitStore } from '../../src/api/shared-rate-limit-store.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

let t: TestApp
let ws: ImportResult

before(async () => {
  t = await startTestApp({
    env: { RATE_LIMIT_READS_PER_MINUTE: '5', RATE_LIMIT_WRITES_PER_MINUTE: '2' },
  })
  ws = await importOk(t.db.db, writableBundle())
})
after(() => t.close())

// Each test starts at the beginning of a fresh minute.
function nextMinute() {
  const now = t.clock.now().getTime()
  t.clock.advance(60_000 - (now % 60_000))
}

test('every authenticated response carries RateLimit headers; over the limit is 429', async () => {
  nextMinute()
  t.clock.advance(15_000)
  const api = client(t.app, tokenOf(ws, 'alice-key'))
  for (let i = 1; i <= 5; i++) {
    const reply = await api.get('/v1/workspace')
    assert.equal(reply.status, 200)
    assert.equal(reply.headers['ratelimit-limit'], '5')
    assert.equal(reply.headers['ratelimit-remaining'], String(5 - i))
    assert.equal(reply.headers['ratelimit-reset'], '45')
    assert.equal(reply.headers['ratelimit-policy'], '5;w=60')
  }
  const limited = await api.get('/v1/workspace')
  assert.equal(limited.status, 429)
  assert.equal(limited.json.code, 'rate_limited')
  assert.equal(limited.headers['retry-after'], '45')
  assert.equal(limited.headers['ratelimit-remaining'], '0')
  // Errors count and carry the headers too.
  const missing = await api.get('/v1/resources/tsk_00000000000000000000000000')
  assert.equal(missing.status, 429)
  // Another token has its own budget.
  assert.equal((await client(t.app, tokenOf(ws, 'bob-key')).get('/v1/workspace')).status, 200)
  // The next minute starts over.
  nextMinute()
  assert.equal((await api.get('/v1/workspace')).headers['ratelimit-remaining'], '4')
})

test('writes have their own, smaller budget', async () => {
  nextMinute()
  const api = client(t.app, tokenOf(ws, 'bob-key'))
  const first = await api.post('/v1/tasks', { title: 'One' })
  assert.equal(first.status, 201)
  assert.equal(first.headers['ratelimit-limit'], '2')
  assert.equal((await api.post('/v1/tasks', { title: 'Two' })).status, 201)
  const third = await api.post('/v1/tasks', { title: 'Three' })
  assert.equal(third.status, 429)
  assert.equal(third.headers['retry-after'], '60')
  const three = await t.db.db
    .selectFrom('tasks')
    .select('id')
    .where('title', '=', 'Three')
    .execute()
  assert.equal(three.length, 0)
  // Reads are still fine.
  assert.equal((await api.get('/v1/workspace')).status, 200)
})

test('requests without a valid token are not counted against anyone and get no budget headers', async () => {
  const reply = await client(t.app, 'wg_key_nonsense').get('/v1/workspace')
  assert.equal(reply.status, 401)
  assert.equal(reply.headers['ratelimit-limit'], undefined)
})

test('instances on one database share a budget: exact when it is small', async () => {
  const window = new Date(Math.floor(t.clock.now().getTime() / 60_000) * 60_000)
  const instances = [new SharedRateLimitStore(t.db.db), new SharedRateLimitStore(t.db.db)]
  const subject = { workspaceId: ws.workspace_id, tokenId: 'shared-small', kind: 'read' as const }
  let admitted = 0
  for (let i = 0; i < 60; i++) {
    if (((await instances[i % 2]?.hit(subject, window, 40)) ?? 41) <= 40) admitted++
  }
  await Promise.all(instances.map((store) => store.close()))
  assert.equal(admitted, 40)
})

test('a large budget is counted in batches, shared, and overshot by under 1 % per instance', async () => {
  const window = new Date(Math.floor(t.clock.now().getTime() / 60_000) * 60_000)
  const [a, b] = [new SharedRateLimitStore(t.db.db), new SharedRateLimitStore(t.db.db)]
  const subject = { workspaceId: ws.workspace_id, tokenId: 'shared-large', kind: 'read' as const }
  const inTable = async () =>
    (
      await t.db.db
        .selectFrom('rate_limit_windows')
        .select('hits')
        .where('token_id', '=', subject.tokenId)
        .executeTakeFirst()
    )?.hits ?? 0
  // The first request reads the shared count; the next ones, up to a hundredth of the budget,
  // are counted in memory and reach the table with the next flush.
  for (let i = 1; i <= 9; i++) assert.equal(await a.hit(subject, window, 1000), i)
  assert.equal(await inTable(), 1)
  // The flush runs on the store's own timer: wait for its effect, not for a time.
  const deadline = Date.now() + 10_000
  while ((await inTable()) < 9 && Date.now() < deadline) await setTimeout(20)
  assert.equal(await inTable(), 9)
  assert.equal(await b.hit(subject, window, 1000), 10, 'the other instance sees the shared count')
  // Both instances spend the rest as fast as they can.
  let admitted = 10
  for (let i = 0; i < 2000; i++) {
    if (((await [a, b][i % 2]?.hit(subject, window, 1000)) ?? 1001) <= 1000) admitted++
  }
  await Promise.all([a.close(), b.close()])
  assert.ok(admitted >= 1000, `admitted ${admitted}`)
  assert.ok(admitted < 1000 + 2 * 10, `admitted ${admitted}: more than 1 % over, per instance`)
  assert.equal(await inTable(), 2010, 'every request is in the table once the stores close')
})

test('dry runs spend the read budget, never the write budget', async () => {
  nextMinute()
  const api = client(t.app, tokenOf(ws, 'gus-key'))
  for (let i = 1; i <= 3; i++) {
    const dry = await api.post('/v1/tasks?dry_run=true', { title: `Dry ${i}` })
    assert.equal(dry.status, 200, dry.body)
    assert.equal(dry.headers['ratelimit-limit'], '5', 'counted as a read')
    assert.equal(dry.headers['ratelimit-remaining'], String(5 - i))
  }
  const first = await api.post('/v1/tasks', { title: 'Real one' })
  assert.equal(first.status, 201)
  assert.equal(first.headers['ratelimit-remaining'], '1', 'the write budget is untouched')
})
