import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'

// `/v1/tasks` (graph/tasks/tasks.routes.ts): the list and its filters, creating, completing.
// Visibility, cursors, idempotency and dry runs of these routes are tested with every other
// route's (access/, writes/, api/); this file holds what is the tasks' own.

let t: TestApp
let ws: ImportResult
const as = (key: string) => client(t.app, tokenOf(ws, key))
const id = (key: string) => ws.ids[key] as string
const ids = (reply: { json: { data: { id: string }[] } }) => reply.json.data.map((task) => task.id)

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, writableBundle(), { now: t.clock.now() })
})
after(() => t.close())

test('the list holds the tasks the caller may open, and each filter keeps only its own', async () => {
  const alice = as('alice-key')
  assert.deepEqual(ids(await alice.get('/v1/tasks')).sort(), [id('t-open'), id('t-secret')].sort())
  assert.deepEqual(ids(await as('gus-key').get('/v1/tasks')), [id('t-open')])
  assert.deepEqual(ids(await alice.get(`/v1/tasks?project_id=${id('secret')}`)), [id('t-secret')])
  assert.deepEqual(ids(await alice.get(`/v1/tasks?assignee_id=${id('gus')}`)), [id('t-open')])
  assert.deepEqual(ids(await alice.get('/v1/tasks?status=in_progress')), [id('t-secret')])
  assert.deepEqual(ids(await alice.get('/v1/tasks?due_before=2026-12-02')), [id('t-open')])
  assert.deepEqual(ids(await alice.get('/v1/tasks?due_after=2026-12-02')), [])
})

test('a task is created with its defaults, in the project named, and listed first', async () => {
  t.clock.advance(1000)
  const created = await as('alice-key').post('/v1/tasks', {
    title: 'Write the launch notes',
    project_id: id('open'),
  })
  assert.equal(created.status, 201, created.body)
  assert.equal(created.json.type, 'task')
  assert.equal(created.json.status, 'todo')
  assert.equal(created.json.description, '')
  assert.equal(created.json.project_id, id('open'))
  assert.equal(created.json.completed_at, null)
  const listed = await as('alice-key').get(`/v1/tasks?project_id=${id('open')}&limit=1`)
  assert.deepEqual(ids(listed), [created.json.id], 'newest first')
})

test('completing a task marks it done once; completing it again changes nothing', async () => {
  const created = await as('alice-key').post('/v1/tasks', { title: 'Ship', project_id: id('open') })
  const done = await as('alice-key').post(`/v1/tasks/${created.json.id}/complete`)
  assert.equal(done.status, 200, done.body)
  assert.equal(done.json.status, 'done')
  assert.equal(typeof done.json.completed_at, 'string')
  const again = await as('alice-key').post(`/v1/tasks/${created.json.id}/complete`)
  assert.equal(again.status, 200)
  assert.equal(again.json.completed_at, done.json.completed_at, 'the first completion stands')
})

test('a task in a project the caller cannot open, or completing one, is the one 404', async () => {
  const gus = as('gus-key')
  const hidden = await gus.post('/v1/tasks', { title: 'Sneak in', project_id: id('secret') })
  const unknown = await gus.post('/v1/tasks', {
    title: 'Sneak in',
    project_id: 'prj_00000000000000000000000000',
  })
  assert.equal(hidden.status, 404)
  assert.deepEqual({ ...hidden.json, request_id: null }, { ...unknown.json, request_id: null })
  const complete = await gus.post(`/v1/tasks/${id('t-secret')}/complete`)
  assert.equal(complete.status, 404)
})

test('creating and completing need task:write; listing needs task:read', async () => {
  const reader = as('read-only-key')
  const refused = await reader.post('/v1/tasks', { title: 'No', project_id: id('open') })
  assert.equal(refused.status, 403)
  assert.deepEqual(refused.json.required_scopes, ['task:write'])
  assert.equal((await reader.post(`/v1/tasks/${id('t-open')}/complete`)).status, 403)
  const narrow = await as('narrow-key').get('/v1/tasks')
  assert.equal(narrow.status, 200)
})
