import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { contentState } from '../harness/row-counts.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

let t: TestApp
let ws: ImportResult
let openCanvas: string
const id = (key: string) => ws.ids[key] as string
const UNKNOWN = {
  project: 'prj_00000000000000000000000000',
  task: 'tsk_00000000000000000000000000',
  person: 'usr_00000000000000000000000000',
  comment: 'cmt_00000000000000000000000000',
  kr: 'kr_00000000000000000000000000',
  canvas: 'cnv_00000000000000000000000000',
}

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, writableBundle())
  const canvas = await client(t.app, tokenOf(ws, 'alice-key')).post('/v1/canvases', {
    title: 'Open canvas',
    project_id: id('open'),
  })
  openCanvas = canvas.json.id
})
after(() => t.close())

/** One bad request: what is sent (as Bob, who cannot open the secret project) and the status. */
interface Case {
  name: string
  method?: 'POST' | 'PATCH'
  url: string
  body?: unknown
  raw?: string
  contentType?: string
  key?: string
  status: number
}

const cases = (): Case[] => {
  const task = (name: string, body: unknown, status: number): Case => ({
    name: `task: ${name}`,
    url: '/v1/tasks',
    body,
    status,
  })
  const comment = (name: string, body: unknown, status: number): Case => ({
    name: `comment: ${name}`,
    url: '/v1/comments',
    body,
    status,
  })
  const checkin = (name: string, body: unknown, status: number): Case => ({
    name: `check-in: ${name}`,
    url: '/v1/okr/checkins',
    body,
    status,
  })
  const patch = (name: string, body: unknown, status: number, canvas = openCanvas): Case => ({
    name: `canvas patch: ${name}`,
    method: 'PATCH',
    url: `/v1/canvases/${canvas}`,
    body,
    status,
  })
  const kr = id('kr1')
  return [
    task('empty body', {}, 422),
    task('empty title', { title: '' }, 422),
    task('blank title', { title: '   ' }, 422),
    task('title too long', { title: 'x'.repeat(501) }, 422),
    task('title is a number', { title: 42 }, 422),
    task('title is null', { title: null }, 422),
    task('unknown field', { title: 'ok', priority: 1 }, 422),
    task('impossible due date', { title: 'ok', due: '2026-13-45' }, 422),
    task('due in words', { title: 'ok', due: 'tomorrow' }, 422),
    task('unknown status', { title: 'ok', status: 'finished' }, 422),
    task('project id is a number', { title: 'ok', project_id: 123 }, 422),
    task('description too long', { title: 'ok', description: 'x'.repeat(10_001) }, 422),
    task('unknown project', { title: 'ok', project_id: UNKNOWN.project }, 404),
    task('hidden project', { title: 'ok', project_id: id('secret') }, 404),
    task('a task id as project', { title: 'ok', project_id: id('t-open') }, 404),
    task('hidden parent', { title: 'ok', parent_id: id('t-secret') }, 404),
    task('unknown parent', { title: 'ok', parent_id: UNKNOWN.task }, 404),
    task('hidden canvas', { title: 'ok', canvas_id: id('plan') }, 404),
    task('unknown assignee', { title: 'ok', assignee_id: UNKNOWN.person }, 404),
    task('an array body', [{ title: 'ok' }], 422),
    { name: 'task: malformed JSON', url: '/v1/tasks', raw: '{"title": "ok"', status: 400 },
    { name: 'task: JSON null', url: '/v1/tasks', raw: 'null', status: 422 },
    {
      name: 'task: text body',
      url: '/v1/tasks',
      raw: 'title=ok',
      contentType: 'text/plain',
      status: 415,
    },
    {
      name: 'task: body over the limit',
      url: '/v1/tasks',
      raw: JSON.stringify({ title: 'ok', description: 'x'.repeat(1_100_000) }),
      status: 413,
    },
    {
      name: 'task: bad idempotency key',
      url: '/v1/tasks',
      body: { title: 'ok' },
      key: 'a b',
      status: 400,
    },
    { name: 'complete: unknown task', url: `/v1/tasks/${UNKNOWN.task}/complete`, status: 404 },
    { name: 'complete: hidden task', url: `/v1/tasks/${id('t-secret')}/complete`, status: 404 },
    { name: 'complete: malformed id', url: '/v1/tasks/xyz/complete', status: 404 },
    comment('empty body', {}, 422),
    comment('empty text', { resource_id: id('open'), body: '' }, 422),
    comment('blank text', { resource_id: id('open'), body: ' \n ' }, 422),
    comment('text too long', { resource_id: id('open'), body: 'x'.repeat(10_001) }, 422),
    comment('hidden resource', { resource_id: id('t-secret'), body: 'x' }, 404),
    comment('unknown resource', { resource_id: UNKNOWN.task, body: 'x' }, 404),
    comment('a person', { resource_id: id('bob'), body: 'x' }, 422),
    comment('hidden parent', { resource_id: id('t-secret'), parent_id: id('m1'), body: 'x' }, 404),
    comment(
      'unknown parent',
      { resource_id: id('open'), parent_id: UNKNOWN.comment, body: 'x' },
      404,
    ),
    checkin('value in words', { key_result_id: kr, value: 'high' }, 422),
    checkin('no value', { key_result_id: kr }, 422),
    {
      name: 'check-in: infinite value',
      url: '/v1/okr/checkins',
      raw: `{"key_result_id":"${kr}","value":1e400}`,
      status: 422,
    },
    checkin('huge value', { key_result_id: kr, value: 1e300 }, 422),
    checkin('confidence above 1', { key_result_id: kr, value: 1, confidence: 2 }, 422),
    checkin('note too long', { key_result_id: kr, value: 1, note: 'x'.repeat(2001) }, 422),
    checkin('unknown key result', { key_result_id: UNKNOWN.kr, value: 1 }, 404),
    { name: 'canvas: no title', url: '/v1/canvases', body: {}, status: 422 },
    {
      name: 'canvas: bad visibility',
      url: '/v1/canvases',
      body: { title: 'x', visibility: 'public' },
      status: 422,
    },
    {
      name: 'canvas: hidden project',
      url: '/v1/canvases',
      body: { title: 'x', project_id: id('secret') },
      status: 404,
    },
    patch('nothing to change', {}, 422),
    patch('links not a list', { links: 'x' }, 422),
    patch('hidden link', { links: [id('t-secret')] }, 404),
    patch('too many links', { links: Array.from({ length: 101 }, () => id('open')) }, 422),
    patch('duplicate links', { links: [id('open'), id('open')] }, 422),
    patch('a person as link', { links: [id('bob')] }, 422),
    patch('empty title', { title: '' }, 422),
    patch('visibility is not editable', { visibility: 'private' }, 422),
    patch('unknown canvas', { title: 'x' }, 404, UNKNOWN.canvas),
    patch('hidden canvas', { title: 'x' }, 404, id('plan')),
  ]
}

test('every malformed write gets its 4xx problem and changes nothing', async () => {
  const api = client(t.app, tokenOf(ws, 'bob-key'))
  await api.get('/v1/workspace') // the token's last use is recorded once; do it before counting
  const list = cases()
  assert.ok(list.length >= 40)
  const before = await contentState(t.db.db)
  for (const c of list) {
    const reply = await api.send({
      method: c.method ?? 'POST',
      url: c.url,
      headers: {
        ...(c.key ? { 'idempotency-key': c.key } : {}),
        ...(c.body !== undefined || c.raw !== undefined
          ? { 'content-type': c.contentType ?? 'application/json' }
          : {}),
      },
      ...(c.raw !== undefined
        ? { payload: c.raw }
        : c.body !== undefined
          ? { payload: JSON.stringify(c.body) }
          : {}),
    })
    assert.equal(reply.status, c.status, `${c.name}: ${reply.body}`)
    assert.match(String(reply.headers['content-type']), /^application\/problem\+json/, c.name)
    assert.equal(reply.json.status, c.status, c.name)
  }
  assert.deepEqual(await contentState(t.db.db), before)
})

test('the same bad requests with idempotency keys store only business answers, and no content', async () => {
  const api = client(t.app, tokenOf(ws, 'bob-key'))
  const before = await contentState(t.db.db)
  let n = 0
  for (const c of cases().filter((x) => !x.key && x.body !== undefined)) {
    const reply = await api.send({
      method: c.method ?? 'POST',
      url: c.url,
      headers: { 'idempotency-key': `bad-${++n}`, 'content-type': 'application/json' },
      payload: JSON.stringify(c.body),
    })
    assert.equal(reply.status, c.status, c.name)
  }
  const after = await contentState(t.db.db)
  const { idempotency_keys: _, ...content } = after
  const { idempotency_keys: __, ...contentBefore } = before
  assert.deepEqual(content, contentBefore)
  const stored = await t.db.db.selectFrom('idempotency_keys').select('status').execute()
  assert.ok(stored.every((row) => row.status === 'completed'))
})
