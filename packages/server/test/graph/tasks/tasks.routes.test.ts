import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'

// `/v1/tasks` (graph/tasks/tasks.routes.ts): the list and its filters, creating, changing, completing.
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

// The activity entries (verb and changes), events and audit actions a task has had.
async function historyOf(taskId: string) {
  const activity = await as('olive-key').get(`/v1/activity?resource_id=${taskId}&limit=50`)
  const events = await t.db.db
    .selectFrom('events')
    .select('type')
    .where('subject_id', '=', taskId)
    .orderBy('created_at')
    .execute()
  const audit = await as('olive-key').get(`/v1/audit?resource_id=${taskId}&limit=50`)
  return {
    activity: (activity.json.data as { verb: string; changes: object }[])
      .map((entry) => [entry.verb, Object.keys(entry.changes ?? {}).sort()])
      .reverse(),
    events: events.map((event) => event.type),
    audit: (audit.json.data as { action: string }[]).map((entry) => entry.action).reverse(),
  }
}

test('a task is changed field by field; activity and the audit list every field changed', async () => {
  t.clock.advance(1000)
  const created = await as('alice-key').post('/v1/tasks', {
    title: 'Draft',
    project_id: id('open'),
  })
  const taskId = created.json.id
  t.clock.advance(1000)
  const changed = await as('alice-key').patch(`/v1/tasks/${taskId}`, {
    title: 'Draft the notes',
    description: 'For **launch** day.',
    assignee_id: id('bob'),
    due: '2026-12-08',
  })
  assert.equal(changed.status, 200, changed.body)
  assert.equal(changed.json.title, 'Draft the notes')
  assert.equal(changed.json.description, 'For **launch** day.')
  assert.equal(changed.json.assignee_id, id('bob'))
  assert.equal(changed.json.due, '2026-12-08')
  assert.equal(changed.json.status, 'todo', 'a field not given keeps its value')
  assert.ok(changed.json.updated_at > created.json.updated_at)
  t.clock.advance(1000)
  const cleared = await as('alice-key').patch(`/v1/tasks/${taskId}`, {
    assignee_id: null,
    due: null,
  })
  assert.equal(cleared.status, 200, cleared.body)
  assert.deepEqual([cleared.json.assignee_id, cleared.json.due], [null, null])
  t.clock.advance(1000)
  const same = await as('alice-key').patch(`/v1/tasks/${taskId}`, { title: 'Draft the notes' })
  assert.equal(same.status, 200)
  assert.equal(same.json.updated_at, cleared.json.updated_at, 'a change to nothing is no write')
  assert.deepEqual(await historyOf(taskId), {
    activity: [
      ['task.created', []],
      ['task.updated', ['assignee_id', 'description', 'due', 'title']],
      ['task.updated', ['assignee_id', 'due']],
    ],
    events: ['task.created', 'task.updated', 'task.updated'],
    audit: ['task.created', 'task.updated', 'task.updated'],
  })
  const audit = await as('olive-key').get(`/v1/audit?resource_id=${taskId}&action=task.updated`)
  const diffs = (audit.json.data as { changed_fields: string[] }[]).map((entry) =>
    [...entry.changed_fields].sort(),
  )
  assert.deepEqual(diffs, [
    ['assignee_id', 'due'],
    ['assignee_id', 'description', 'due', 'title'],
  ])
})

test('done completes a task, as completing does; another status reopens it', async () => {
  t.clock.advance(1000)
  const created = await as('alice-key').post('/v1/tasks', { title: 'Ship', project_id: id('open') })
  const taskId = created.json.id
  t.clock.advance(1000)
  const done = await as('alice-key').patch(`/v1/tasks/${taskId}`, { status: 'done' })
  assert.equal(done.status, 200, done.body)
  assert.equal(done.json.status, 'done')
  assert.equal(typeof done.json.completed_at, 'string')
  t.clock.advance(1000)
  const reopened = await as('alice-key').patch(`/v1/tasks/${taskId}`, { status: 'in_progress' })
  assert.equal(reopened.json.status, 'in_progress')
  assert.equal(reopened.json.completed_at, null)
  assert.deepEqual((await historyOf(taskId)).events, [
    'task.created',
    'task.completed',
    'task.updated',
  ])
})

test('a change is refused with a clear 4xx, and nothing is written', async () => {
  const alice = as('alice-key')
  const url = `/v1/tasks/${id('t-open')}`
  const before = await historyOf(id('t-open'))
  const refusals: [unknown, number, string][] = [
    [{}, 422, 'validation_failed'],
    [{ title: 'x', priority: 1 }, 422, 'validation_failed'],
    [{ status: 'archived' }, 422, 'validation_failed'],
    [{ due: '2026-13-45' }, 422, 'validation_failed'],
    [{ title: '   ' }, 422, 'validation_failed'],
    [{ assignee_id: 'usr_00000000000000000000000000' }, 404, 'not_found'],
  ]
  for (const [body, status, code] of refusals) {
    const reply = await alice.patch(url, body)
    assert.deepEqual([reply.status, reply.json.code], [status, code], JSON.stringify(body))
  }
  // Gus is a guest of the open project only: he cannot open the secret one.
  const outside = await alice.patch(`/v1/tasks/${id('t-secret')}`, { assignee_id: id('gus') })
  assert.equal(outside.status, 422, outside.body)
  assert.equal(outside.json.errors[0].path, '/assignee_id')
  assert.deepEqual(await historyOf(id('t-open')), before)
  const task = await alice.get(`/v1/resources/${id('t-secret')}`)
  assert.equal(task.json.assignee_id, null, 'the refused assignee was not written')
})

test('a hidden task, or a person the caller cannot see, is the one 404 of an unknown id', async () => {
  const gus = as('gus-key')
  const hidden = await gus.patch(`/v1/tasks/${id('t-secret')}`, { status: 'done' })
  const unknown = await gus.patch('/v1/tasks/tsk_00000000000000000000000000', { status: 'done' })
  assert.equal(hidden.status, 404)
  assert.deepEqual({ ...hidden.json, request_id: null }, { ...unknown.json, request_id: null })
  // A guest sees only the people of the projects he belongs to: Bob is not one of them.
  const bob = await gus.patch(`/v1/tasks/${id('t-open')}`, { assignee_id: id('bob') })
  const nobody = await gus.patch(`/v1/tasks/${id('t-open')}`, {
    assignee_id: 'usr_00000000000000000000000000',
  })
  assert.equal(bob.status, 404)
  assert.deepEqual({ ...bob.json, request_id: null }, { ...nobody.json, request_id: null })
})

test('a task without a project is reassigned only by its creator', async () => {
  const mine = await as('alice-key').post('/v1/tasks', { title: 'Private errand' })
  const handed = await as('alice-key').patch(`/v1/tasks/${mine.json.id}`, {
    assignee_id: id('bob'),
  })
  assert.equal(handed.status, 200, handed.body)
  const bob = as('bob-key')
  assert.equal((await bob.patch(`/v1/tasks/${mine.json.id}`, { status: 'blocked' })).status, 200)
  const passOn = await bob.patch(`/v1/tasks/${mine.json.id}`, { assignee_id: id('olive') })
  assert.equal(passOn.status, 422, passOn.body)
  assert.equal(passOn.json.errors[0].path, '/assignee_id')
})

test('changing a task needs task:write', async () => {
  const refused = await as('read-only-key').patch(`/v1/tasks/${id('t-open')}`, { status: 'done' })
  assert.equal(refused.status, 403)
  assert.deepEqual(refused.json.required_scopes, ['task:write'])
})
