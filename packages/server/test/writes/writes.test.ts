import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import type { AuditAction } from '../../src/db/tables/audit.table.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

let t: TestApp
let ws: ImportResult
const id = (key: string) => ws.ids[key] as string
const as = (key: string) => client(t.app, tokenOf(ws, key))

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, writableBundle())
})
after(() => t.close())

async function eventsOf(subjectId: string) {
  return t.db.db
    .selectFrom('events')
    .selectAll()
    .where('subject_id', '=', subjectId)
    .orderBy('created_at')
    .execute()
}

async function auditOf(resourceId: string) {
  return t.db.db
    .selectFrom('audit_log')
    .selectAll()
    .where('resource_id', '=', resourceId)
    .orderBy('created_at')
    .execute()
}

test('creating a task answers 201 with the record, and records activity, audit and one event', async () => {
  const reply = await as('alice-key').post('/v1/tasks', {
    title: 'Write the launch post',
    description: 'Short and clear',
    project_id: id('open'),
    assignee_id: id('gus'),
    due: '2026-12-24',
  })
  assert.equal(reply.status, 201, reply.body)
  const task = reply.json
  assert.match(task.id, /^tsk_/)
  assert.equal(task.title, 'Write the launch post')
  assert.equal(task.status, 'todo')
  assert.equal(task.creator_id, id('alice'))
  assert.equal(task.assignee_id, id('gus'))
  assert.equal(task.project_id, id('open'))
  assert.equal(task.due, '2026-12-24')
  assert.equal(task.completed_at, null)

  // Readable at once, by the assignee too (through the resource index).
  assert.equal((await as('gus-key').get(`/v1/resources/${task.id}`)).status, 200)
  const activity = await as('bob-key').get(`/v1/activity?resource_id=${task.id}`)
  assert.deepEqual(
    activity.json.data.map((a: { verb: string; actor_id: string }) => [a.verb, a.actor_id]),
    [['task.created', id('alice')]],
  )
  const [audit] = await auditOf(task.id)
  assert.equal(audit?.action, 'task.created')
  assert.equal(audit?.token_id, ws.api_keys['alice-key']?.id)
  assert.deepEqual((audit?.diff as Record<string, unknown> | undefined)?.title, {
    from: null,
    to: 'Write the launch post',
  })
  const events = await eventsOf(task.id)
  assert.deepEqual(
    events.map((e) => e.type),
    ['task.created'],
  )
  assert.equal(events[0]?.data.object.title, 'Write the launch post')
  assert.equal(events[0]?.dispatched_at, null)
})

test('a subtask lives in its parent project; a different project is a 422 naming the field', async () => {
  const api = as('alice-key')
  const parent = id('t-secret')
  const sub = await api.post('/v1/tasks', { title: 'Sub', parent_id: parent })
  assert.equal(sub.status, 201, sub.body)
  assert.equal(sub.json.project_id, id('secret'))
  assert.equal(sub.json.parent_id, parent)
  const wrong = await api.post('/v1/tasks', {
    title: 'Sub',
    parent_id: parent,
    project_id: id('open'),
  })
  assert.equal(wrong.status, 422)
  assert.equal(wrong.json.code, 'validation_failed')
  assert.deepEqual(
    wrong.json.errors.map((e: { path: string }) => e.path),
    ['/project_id'],
  )
})

test('an assignee must be able to open the project; a canvas must be of the same project', async () => {
  const api = as('alice-key')
  const guest = await api.post('/v1/tasks', {
    title: 'For Gus',
    project_id: id('secret'),
    assignee_id: id('gus'),
  })
  assert.equal(guest.status, 422)
  assert.equal(guest.json.errors[0].path, '/assignee_id')
  const canvas = await api.post('/v1/tasks', {
    title: 'Off canvas',
    project_id: id('open'),
    canvas_id: id('plan'),
  })
  assert.equal(canvas.status, 422)
  assert.equal(canvas.json.errors[0].path, '/canvas_id')
  // Without a project, any visible person may be assigned: the task is theirs and the creator's.
  const personal = await api.post('/v1/tasks', { title: 'Just us', assignee_id: id('bob') })
  assert.equal(personal.status, 201)
  assert.equal((await as('bob-key').get(`/v1/resources/${personal.json.id}`)).status, 200)
  assert.equal((await as('adam-key').get(`/v1/resources/${personal.json.id}`)).status, 404)
})

test('an id in the body that the caller cannot open is the same 404 as an unknown one', async () => {
  const api = as('bob-key')
  const hidden = await api.post('/v1/tasks', { title: 'x', project_id: id('secret') })
  const unknown = await api.post('/v1/tasks', {
    title: 'x',
    project_id: 'prj_00000000000000000000000000',
  })
  assert.equal(hidden.status, 404)
  assert.equal(unknown.status, 404)
  const strip = (body: { request_id: string }) => ({ ...body, request_id: '' })
  assert.deepEqual(strip(hidden.json), strip(unknown.json))
  assert.deepEqual(hidden.json.errors, [
    { path: '/project_id', message: 'names no resource this token can open' },
  ])
  const comment = await api.post('/v1/comments', { resource_id: id('t-secret'), body: 'hi' })
  assert.equal(comment.status, 404)
  assert.equal(comment.json.errors[0].path, '/resource_id')
})

test('completing a task records task.completed once; completing it again changes nothing', async () => {
  const api = as('alice-key')
  const created = await api.post('/v1/tasks', { title: 'Ship it', project_id: id('open') })
  const taskId = created.json.id
  t.clock.advance(1000)
  const done = await api.post(`/v1/tasks/${taskId}/complete`)
  assert.equal(done.status, 200, done.body)
  assert.equal(done.json.status, 'done')
  assert.equal(done.json.completed_at, t.clock.now().toISOString())
  const again = await api.post(`/v1/tasks/${taskId}/complete`)
  assert.equal(again.status, 200)
  assert.equal(again.body, done.body)
  assert.deepEqual(
    (await eventsOf(taskId)).map((e) => e.type),
    ['task.created', 'task.completed'],
  )
  const audits = await auditOf(taskId)
  assert.deepEqual(audits[1]?.diff, {
    status: { from: 'todo', to: 'done' },
    completed_at: { from: null, to: t.clock.now().toISOString() },
  })
  assert.equal((await as('bob-key').post(`/v1/tasks/${id('t-secret')}/complete`)).status, 404)
})

test('comments and replies: on what the caller may open, replies on the same resource', async () => {
  const api = as('alice-key')
  const root = await api.post('/v1/comments', { resource_id: id('plan'), body: 'Looks good' })
  assert.equal(root.status, 201, root.body)
  assert.equal(root.json.author_id, id('alice'))
  t.clock.advance(1000)
  const reply = await api.post('/v1/comments', {
    resource_id: id('plan'),
    parent_id: root.json.id,
    body: 'Agreed',
  })
  assert.equal(reply.status, 201)
  assert.equal(reply.json.parent_id, root.json.id)
  const elsewhere = await api.post('/v1/comments', {
    resource_id: id('open'),
    parent_id: root.json.id,
    body: 'Lost',
  })
  assert.equal(elsewhere.status, 422)
  assert.equal(elsewhere.json.errors[0].path, '/parent_id')
  const onComment = await api.post('/v1/comments', { resource_id: root.json.id, body: 'Nested' })
  assert.equal(onComment.status, 422)
  // The comment is as private as its canvas: Bob cannot see it, in lists or activity.
  assert.equal((await as('bob-key').get(`/v1/resources/${root.json.id}`)).status, 404)
  const bobs = await as('bob-key').get('/v1/activity?verbs=comment.created')
  assert.ok(!bobs.body.includes(root.json.id))
  const comments = await api.get(`/v1/resources/${id('plan')}/comments`)
  assert.deepEqual(
    comments.json.data.map((c: { body: string }) => c.body),
    ['Looks good', 'Agreed'],
  )
  assert.deepEqual(
    (await eventsOf(root.json.id)).map((e) => e.type),
    ['comment.created'],
  )
})

test("a check-in sets the key result's current value and the objective's progress", async () => {
  const reply = await as('bob-key').post('/v1/okr/checkins', {
    key_result_id: id('kr1'),
    value: 70,
    confidence: 0.8,
    note: 'Good week',
  })
  assert.equal(reply.status, 201, reply.body)
  assert.equal(reply.json.value, 70)
  assert.equal(reply.json.key_result.current, 70)
  assert.equal(reply.json.key_result.progress, 0.7)
  assert.equal(reply.json.objective_progress, 0.7)
  const okr = await as('alice-key').get(`/v1/resources/${id('o1')}`)
  assert.equal(okr.json.progress, 0.7)
  assert.equal(okr.json.key_results[0].current, 70)
  const activity = await as('alice-key').get(
    `/v1/activity?resource_id=${id('o1')}&verbs=okr.checkin`,
  )
  const entry = activity.json.data.find((a: { object_id: string }) => a.object_id === reply.json.id)
  assert.deepEqual(entry?.changes, { progress: { from: 0.4, to: 0.7 } })
  assert.deepEqual(
    (await eventsOf(id('o1'))).map((e) => e.type),
    ['okr.checkin'],
  )
  const guest = await as('gus-key').post('/v1/okr/checkins', { key_result_id: id('kr1'), value: 1 })
  assert.equal(guest.status, 404)
})

test('canvases: people create them; an edit keeps links its author cannot open', async () => {
  const bot = await client(t.app, tokenOf(ws, 'bot-token')).post('/v1/canvases', { title: 'Bot' })
  assert.equal(bot.status, 403)
  assert.equal(bot.json.code, 'forbidden')
  const guest = await as('gus-key').post('/v1/canvases', { title: 'Mine' })
  assert.equal(guest.status, 422)
  assert.equal(guest.json.errors[0].path, '/visibility')

  const created = await as('alice-key').post('/v1/canvases', {
    title: 'Roadmap',
    summary: 'Next quarter',
    project_id: id('open'),
  })
  assert.equal(created.status, 201, created.body)
  const canvasId = created.json.id
  t.clock.advance(1000)
  assert.equal(created.json.owner_id, id('alice'))
  assert.equal(created.json.visibility, 'project')

  // Alice links a secret task; Bob (who cannot open it) then sets the links he can see.
  const alice = await as('alice-key').patch(`/v1/canvases/${canvasId}`, {
    links: [id('t-secret'), id('t-open')],
  })
  assert.equal(alice.status, 200, alice.body)
  assert.deepEqual(alice.json.links, [id('t-secret'), id('t-open')])
  t.clock.advance(1000)
  const bob = await as('bob-key').patch(`/v1/canvases/${canvasId}`, {
    title: 'Roadmap 2027',
    links: [id('open')],
  })
  assert.equal(bob.status, 200, bob.body)
  assert.deepEqual(bob.json.links, [id('open')])
  const seenByAlice = await as('alice-key').get(`/v1/resources/${canvasId}`)
  assert.deepEqual(seenByAlice.json.links, [id('open'), id('t-secret')])
  assert.equal(seenByAlice.json.title, 'Roadmap 2027')

  const hiddenLink = await as('bob-key').patch(`/v1/canvases/${canvasId}`, {
    links: [id('t-secret')],
  })
  assert.equal(hiddenLink.status, 404)
  assert.equal(hiddenLink.json.errors[0].path, '/links/0')
  const self = await as('bob-key').patch(`/v1/canvases/${canvasId}`, { links: [canvasId] })
  assert.equal(self.status, 422)

  const activity = await as('bob-key').get(`/v1/activity?resource_id=${canvasId}`)
  assert.deepEqual(
    activity.json.data.map((a: { verb: string; changes: unknown }) => [a.verb, a.changes]),
    [
      ['canvas.updated', { title: { from: 'Roadmap', to: 'Roadmap 2027' } }],
      ['canvas.updated', {}],
      ['canvas.created', {}],
    ],
  )
  assert.ok(!activity.body.includes(id('t-secret')), 'activity never names a hidden link')
  assert.deepEqual(
    (await eventsOf(canvasId)).map((e) => e.type),
    ['canvas.updated', 'canvas.updated'],
  )
  // The same values again change nothing and record nothing.
  const same = await as('bob-key').patch(`/v1/canvases/${canvasId}`, { title: 'Roadmap 2027' })
  assert.equal(same.status, 200)
  assert.equal((await eventsOf(canvasId)).length, 2)
})

test('writes need their scope; a read-only key gets 403 with the scope it lacks', async () => {
  const api = as('read-only-key')
  const reply = await api.post('/v1/tasks', { title: 'Nope' })
  assert.equal(reply.status, 403)
  assert.deepEqual(reply.json.required_scopes, ['task:write'])
  assert.equal((await api.patch(`/v1/canvases/${id('plan')}`, { title: 'x' })).status, 403)
  assert.equal((await api.post('/v1/comments', { resource_id: id('open'), body: 'x' })).status, 403)
})

test('every kind of write is in the audit log with a diff of what it changed', async () => {
  const diffs = async (action: AuditAction) =>
    (
      await t.db.db
        .selectFrom('audit_log')
        .select(['diff', 'actor_id', 'request_id'])
        .where('action', '=', action)
        .orderBy('created_at')
        .execute()
    ).map((row) => row.diff as Record<string, { from: unknown; to: unknown }>)
  const [comment] = await diffs('comment.created')
  assert.deepEqual(comment?.body, { from: null, to: 'Looks good' })
  assert.equal(comment?.resource_id?.to, id('plan'))
  const [checkin] = await diffs('okr.checkin')
  assert.deepEqual(checkin?.key_result_current, { from: 40, to: 70 })
  assert.deepEqual(checkin?.objective_progress, { from: 0.4, to: 0.7 })
  assert.deepEqual(checkin?.value, { from: null, to: 70 })
  const [created] = await diffs('canvas.created')
  assert.deepEqual(created?.title, { from: null, to: 'Roadmap' })
  const updates = await diffs('canvas.updated')
  assert.deepEqual(updates[0]?.links, { from: [], to: [id('t-secret'), id('t-open')] })
  assert.deepEqual(updates[1]?.title, { from: 'Roadmap', to: 'Roadmap 2027' })
  assert.deepEqual(updates[1]?.links, {
    from: [id('t-secret'), id('t-open')],
    to: [id('open'), id('t-secret')],
  })
  assert.equal(Object.keys(updates[1] ?? {}).length, 2, 'unchanged fields are not in the diff')
})
