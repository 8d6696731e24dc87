import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { ManualClock } from '../../../src/lib/clock.ts'
import { importOk, tokenOf, writableBundle } from '../../harness/bundles.ts'
import { callToolInProcess } from '../../harness/mcp-inject.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'

// `/v1/okrs` and `/v1/okr/checkins` (graph/okrs/okrs.routes.ts): objectives and check-ins.

let t: TestApp
let ws: ImportResult
const as = (key: string) => client(t.app, tokenOf(ws, key))
const id = (key: string) => ws.ids[key] as string

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, writableBundle(), { now: t.clock.now() })
})
after(() => t.close())

test('the list holds objectives with their key results, by session', async () => {
  const listed = await as('bob-key').get('/v1/okrs?session=2026-Q4')
  assert.equal(listed.status, 200)
  const [okr] = listed.json.data
  assert.equal(okr.id, id('o1'))
  assert.deepEqual(
    okr.key_results.map((kr: { id: string; current: number; target: number }) => [
      kr.id,
      kr.current,
      kr.target,
    ]),
    [[id('kr1'), 40, 100]],
  )
  assert.deepEqual((await as('bob-key').get('/v1/okrs?session=2027-Q1')).json.data, [])
})

test("a check-in moves its key result and the objective's progress", async () => {
  const checkin = await as('alice-key').post('/v1/okr/checkins', {
    key_result_id: id('kr1'),
    value: 70,
    confidence: 0.8,
    note: 'Campaign landed',
  })
  assert.equal(checkin.status, 201, checkin.body)
  assert.equal(checkin.json.value, 70)
  assert.equal(checkin.json.key_result.current, 70)
  assert.equal(checkin.json.objective_progress, 0.7)
  const [okr] = (await as('alice-key').get('/v1/okrs')).json.data
  assert.equal(okr.key_results[0].current, 70)
  assert.equal(okr.progress, 0.7)
})

test('a check-in needs okr:checkin, and a key result the caller cannot open is the 404', async () => {
  const reader = await as('read-only-key').post('/v1/okr/checkins', {
    key_result_id: id('kr1'),
    value: 1,
  })
  assert.equal(reader.status, 403)
  const unknown = await as('alice-key').post('/v1/okr/checkins', {
    key_result_id: 'kr_00000000000000000000000000',
    value: 1,
  })
  assert.equal(unknown.status, 404)
})

test('an objective carries its latest confidence and its health on the day, in REST and MCP', async () => {
  // Half of 2026-Q4 has passed on 16 November.
  const dated = await startTestApp({ clock: new ManualClock('2026-11-16T09:00:00.000Z') })
  try {
    const result = await importOk(dated.db.db, writableBundle())
    const alice = client(dated.app, tokenOf(result, 'alice-key'))
    const okrId = result.ids.o1 as string
    const before = await alice.get(`/v1/resources/${okrId}`)
    assert.equal(before.json.progress, 0.4)
    assert.equal(before.json.confidence, null)
    assert.deepEqual(before.json.health, { verdict: 'on_track', expected_progress: 0.5 })
    const checkin = await alice.post('/v1/okr/checkins', {
      key_result_id: result.ids.kr1,
      value: 40,
      confidence: 0.3,
    })
    assert.equal(checkin.status, 201, checkin.body)
    const [listed] = (await alice.get('/v1/okrs')).json.data
    assert.equal(listed.confidence, 0.3)
    assert.deepEqual(listed.health, { verdict: 'at_risk', expected_progress: 0.5 })
    const tool = await callToolInProcess(dated.app, tokenOf(result, 'alice-key'), 'list', {
      type: 'okr',
    })
    const line = JSON.stringify(tool.content)
    assert.match(line, /progress · health · expected · confidence/)
    assert.match(line, /· 40 % · at_risk · 50 % · 0.3/)
  } finally {
    await dated.close()
  }
})

test('of check-ins made at the same moment, the lowest confidence is the latest, whatever their ids', async () => {
  // One round over two key results; imported several times, so the ids fall in every order.
  for (let round = 0; round < 6; round++) {
    const bundle = writableBundle()
    const [okr] = bundle.okrs ?? []
    if (!okr) throw new Error('the bundle has an objective')
    okr.key_results.push({ key: 'kr2', title: 'Retention', target: 100, current: 50 })
    const at = '2026-11-20T10:00:00Z'
    bundle.checkins = [
      { key: 'c1', key_result: 'kr1', author: 'alice', value: 40, confidence: 0.9, at },
      { key: 'c2', key_result: 'kr2', author: 'alice', value: 50, confidence: 0.3, at },
      {
        key: 'c0',
        key_result: 'kr2',
        author: 'alice',
        value: 45,
        confidence: 0.1,
        at: '2026-11-19T10:00:00Z',
      },
    ]
    bundle.workspace = { ...bundle.workspace, key: `ws-tie-${round}` }
    const imported = await importOk(t.db.db, bundle, { now: t.clock.now() })
    const reply = await client(t.app, tokenOf(imported, 'alice-key')).get(
      `/v1/resources/${imported.ids.o1}`,
    )
    assert.equal(reply.status, 200, reply.body)
    assert.equal(reply.json.confidence, 0.3)
  }
})
