import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, webhookBundle } from '../harness/bundles.ts'
import { contentState } from '../harness/row-counts.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// A JSON body must be UTF-8 (http/json-body-parser.ts): other bytes are a 400 that changes
// nothing, on every route, including one that reads no body.

let t: TestApp
let ws: ImportResult
let webhook: string
const id = (key: string) => ws.ids[key] as string
// `{"<0xff>":1}`: decoded leniently it would be `{"\ufffd":1}`, valid JSON.
const NOT_UTF8 = Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, webhookBundle())
  const api = client(t.app, tokenOf(ws, 'olive-key'))
  webhook = (await api.post('/v1/webhooks', { url: 'https://hooks.example.test/in' })).json.id
})
after(() => t.close())

test('a body that is not UTF-8 is a 400 problem and changes nothing, on any route', async () => {
  const before = await contentState(t.db.db)
  for (const [method, url] of [
    ['DELETE', `/v1/webhooks/${webhook}`],
    ['POST', '/v1/tasks'],
    ['PATCH', `/v1/tasks/${id('t-open')}`],
    ['POST', '/v1/search'],
  ] as const) {
    const reply = await t.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${tokenOf(ws, 'olive-key')}`,
        'content-type': 'application/json',
      },
      payload: NOT_UTF8,
    })
    assert.equal(reply.statusCode, 400, `${method} ${url}: ${reply.body}`)
    assert.match(reply.headers['content-type'] ?? '', /^application\/problem\+json/)
    assert.equal(reply.json().code, 'invalid_request')
    assert.match(reply.json().detail, /UTF-8/)
  }
  assert.deepEqual(await contentState(t.db.db), before)
  const still = await client(t.app, tokenOf(ws, 'olive-key')).get(`/v1/webhooks/${webhook}`)
  assert.equal(still.status, 200, 'the endpoint was not deleted')
})

test('UTF-8 bodies still parse, with or without a charset, and the empty body of a DELETE', async () => {
  const api = client(t.app, tokenOf(ws, 'olive-key'))
  const made = await t.app.inject({
    method: 'POST',
    url: '/v1/tasks',
    headers: {
      authorization: `Bearer ${tokenOf(ws, 'olive-key')}`,
      'content-type': 'application/json; charset=utf-8',
    },
    payload: Buffer.from(JSON.stringify({ title: 'Café ☕', project_id: id('open') })),
  })
  assert.equal(made.statusCode, 201, made.body)
  assert.equal(made.json().title, 'Café ☕')
  assert.equal((await api.delete(`/v1/webhooks/${webhook}`)).status, 200)
})
