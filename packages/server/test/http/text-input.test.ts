import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, webhookBundle } from '../harness/bundles.ts'
import { contentState } from '../harness/row-counts.ts'
import { client, type Reply, startTestApp, type TestApp } from '../harness/test-app.ts'

// PostgreSQL refuses U+0000 in text, and an unpaired UTF-16 surrogate has no UTF-8 encoding: both
// are refused with one 422 wherever a string enters the API, before anything reads the database.

let t: TestApp
let ws: ImportResult
let canvas: string
let webhook: string
const id = (key: string) => ws.ids[key] as string
const NUL = 'a\u0000b'
const LONE = 'a\ud800b'

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, webhookBundle())
  const api = client(t.app, tokenOf(ws, 'olive-key'))
  canvas = (await api.post('/v1/canvases', { title: 'Canvas', project_id: id('open') })).json.id
  webhook = (
    await api.post('/v1/webhooks', {
      url: 'https://hooks.example.test/in',
      events: ['task.created'],
    })
  ).json.id
  await api.get('/v1/workspace') // the token's last use is recorded once; do it before counting
})
after(() => t.close())

function assertRefused(reply: Reply, path: string, what: string) {
  assert.equal(reply.status, 422, `${what}: ${reply.body}`)
  assert.match(String(reply.headers['content-type']), /^application\/problem\+json/, what)
  assert.equal(reply.json.code, 'validation_failed', what)
  const item = reply.json.errors?.find((e: { path: string }) => e.path === path)
  assert.ok(item, `${what}: no error at ${JSON.stringify(path)} in ${reply.body}`)
  assert.match(item.message, /NUL|surrogate/, what)
}

test('a NUL or an unpaired surrogate in any text field of a write is a 422 that changes nothing', async () => {
  const api = client(t.app, tokenOf(ws, 'olive-key'))
  const kr = id('kr1')
  const writes = (bad: string): [string, string, unknown, string][] => [
    ['POST', '/v1/tasks', { title: bad }, '/title'],
    ['POST', '/v1/tasks', { title: 'ok', description: bad }, '/description'],
    ['POST', '/v1/comments', { resource_id: id('open'), body: bad }, '/body'],
    ['POST', '/v1/okr/checkins', { key_result_id: kr, value: 1, note: bad }, '/note'],
    ['POST', '/v1/canvases', { title: bad }, '/title'],
    ['PATCH', `/v1/canvases/${canvas}`, { summary: bad }, '/summary'],
    ['PATCH', `/v1/canvases/${canvas}`, { links: [id('open'), bad] }, '/links/1'],
    [
      'POST',
      '/v1/webhooks',
      { url: `https://hooks.example.test/${bad}`, events: ['task.created'] },
      '/url',
    ],
    [
      'POST',
      '/v1/webhooks',
      { url: 'https://hooks.example.test/x', events: ['task.created'], description: bad },
      '/description',
    ],
    ['PATCH', `/v1/webhooks/${webhook}`, { description: bad }, '/description'],
    ['POST', '/v1/api-keys', { name: bad, scopes: ['task:read'] }, '/name'],
    ['POST', '/v1/search', { query: bad }, '/query'],
    // anywhere in the body: ids, object keys, nested values the schema does not even know
    ['POST', '/v1/tasks', { title: 'ok', project_id: `prj_${bad}` }, '/project_id'],
    ['POST', '/v1/tasks', { [bad]: 'x', title: 'ok' }, `/${bad}`],
    [
      'POST',
      '/v1/tasks',
      { title: 'ok', extra: { list: [1, { deep: bad }] } },
      '/extra/list/1/deep',
    ],
    ['POST', '/v1/tasks', { title: 'ok', 'a/b~c': [bad] }, '/a~1b~0c/0'],
    ['POST', `/v1/tasks/${id('t-open')}/complete`, { note: bad }, '/note'],
  ]
  const before = await contentState(t.db.db)
  for (const bad of [NUL, LONE]) {
    for (const [method, url, body, path] of writes(bad)) {
      const reply = await api.send({
        method: method as 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      })
      assertRefused(reply, path, `${method} ${url} ${JSON.stringify(body)}`)
    }
  }
  assert.deepEqual(await contentState(t.db.db), before)
})

test('a NUL in the query string, a path id or a header is the same 422, located in its part', async () => {
  const api = client(t.app, tokenOf(ws, 'olive-key'))
  const cases: [string, string, string, Record<string, string>?][] = [
    ['GET', '/v1/okrs?session=%00', '/session'],
    ['GET', '/v1/tasks?project_id=prj_%00', '/project_id'],
    ['GET', '/v1/workspace?x=%00', '/x'],
    ['GET', '/v1/projects?%00=1', '/\u0000'],
    ['GET', '/v1/resources/tsk_%00', '/id'],
    ['GET', `/v1/resources/tsk_${'0'.repeat(25)}%00/links`, '/id'],
    ['GET', '/v1/people/%00', '/id'],
    ['GET', '/v1/webhooks/%00', '/id'],
    ['GET', `/v1/webhooks/${webhook}/deliveries/dlv_%00`, '/delivery_id'],
    ['POST', '/v1/tasks/%00/complete', '/id'],
    ['GET', '/v1/projects', '/x-note', { 'x-note': NUL }],
  ]
  const before = await contentState(t.db.db)
  for (const [method, url, path, headers] of cases) {
    const reply = await api.send({ method: method as 'GET', url, headers: headers ?? {} })
    assertRefused(reply, path, `${method} ${url}`)
  }
  assert.deepEqual(await contentState(t.db.db), before)
})

test('the refusal names the part of the request that was wrong', async () => {
  const api = client(t.app, tokenOf(ws, 'olive-key'))
  assert.equal((await api.get('/v1/okrs?session=%00')).json.detail, 'The query string is invalid.')
  assert.equal((await api.get('/v1/people/%00')).json.detail, 'The path is invalid.')
  assert.equal((await api.post('/v1/tasks', { title: NUL })).json.detail, 'The body is invalid.')
})

test('an unknown route with a NUL is still the plain 404, and text without either is untouched', async () => {
  const api = client(t.app, tokenOf(ws, 'olive-key'))
  assert.equal((await api.get('/v1/nothing-here?q=%00')).status, 404)
  const ok = await api.post('/v1/tasks', {
    title: 'Snow ☃ and 😀, \ufffd and \u0001',
    project_id: id('open'),
  })
  assert.equal(ok.status, 201, ok.body)
  assert.equal(ok.json.title, 'Snow ☃ and 😀, \ufffd and \u0001')
})
