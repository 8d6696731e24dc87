import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import {
  ALL_READ_SCOPES,
  ALL_WRITE_SCOPES,
  importOk,
  smallBundle,
  tokenOf,
} from '../harness/bundles.ts'
import { contentState } from '../harness/row-counts.ts'
import { allPages, client, startTestApp, type TestApp } from '../harness/test-app.ts'

// What a caller could infer about things it cannot open, or of types its token may not read:
// from a rule's message, from a write's side effects, from the names in other records, and from
// cursors and filters.

let t: TestApp
let ws: ImportResult
const as = (key: string) => client(t.app, tokenOf(ws, key))
const id = (key: string) => ws.ids[key] as string
const withoutRequestId = (body: string) => body.replace(/"request_id":"[^"]+"/, '')

before(async () => {
  t = await startTestApp()
  const bundle = smallBundle()
  bundle.tasks = [
    ...(bundle.tasks ?? []),
    // Gus may open this task (it is his) but not the private project it is in.
    {
      key: 't-gus',
      title: 'Review contract',
      status: 'todo',
      project: 'secret',
      creator: 'alice',
      assignee: 'gus',
    },
  ]
  bundle.canvases = [
    ...(bundle.canvases ?? []),
    {
      key: 'board',
      title: 'Board',
      project: 'open',
      visibility: 'project',
      owner: 'alice',
      links: ['t-open', 't-secret', 'o1'],
    },
  ]
  bundle.comments = [
    ...(bundle.comments ?? []),
    {
      key: 'm-okr',
      on: 'o1',
      author: 'alice',
      body: 'Looks achievable',
      at: '2026-11-21T10:00:00Z',
    },
    {
      key: 'm2',
      on: 't-secret',
      author: 'alice',
      body: 'Second remark',
      at: '2026-11-21T11:00:00Z',
    },
  ]
  const everything = [...ALL_READ_SCOPES, ...ALL_WRITE_SCOPES]
  bundle.api_keys = [
    { key: 'gus-key', person: 'gus', scopes: everything },
    { key: 'bob-key', person: 'bob', scopes: everything },
    { key: 'bob-no-tasks', person: 'bob', scopes: ['canvas:read', 'canvas:write', 'okr:read'] },
    { key: 'tasks-only', person: 'alice', scopes: ['task:read'] },
    { key: 'comments-only', person: 'alice', scopes: ['comment:read'] },
    { key: 'activity-only', person: 'alice', scopes: ['activity:read'] },
    { key: 'alice-key', person: 'alice', scopes: everything },
  ]
  ws = await importOk(t.db.db, bundle)
})
after(() => t.close())

test('a subtask of a task whose project the caller cannot open is the 404 of an unknown parent', async () => {
  const unknown = await as('gus-key').post('/v1/tasks', {
    title: 'Sub',
    parent_id: 'tsk_00000000000000000000000000',
  })
  assert.equal(unknown.status, 404)
  const before = await contentState(t.db.db)
  for (const body of [
    { title: 'Sub', parent_id: id('t-gus') },
    { title: 'Sub', parent_id: id('t-gus'), assignee_id: id('bob') },
    { title: 'Sub', parent_id: id('t-gus'), assignee_id: id('gus') },
  ]) {
    const refused = await as('gus-key').post('/v1/tasks', body)
    assert.equal(refused.status, 404, refused.body)
    assert.equal(withoutRequestId(refused.body), withoutRequestId(unknown.body))
  }
  assert.deepEqual(await contentState(t.db.db), before)
  // Alice, who may open the project, still can.
  const allowed = await as('alice-key').post('/v1/tasks', { title: 'Sub', parent_id: id('t-gus') })
  assert.equal(allowed.status, 201, allowed.body)
})

test('restating the links one sees is a no-op, even when hidden or unreadable links exist', async () => {
  for (const key of ['bob-key', 'bob-no-tasks']) {
    const seen = await as(key).get(`/v1/resources/${id('board')}`)
    assert.equal(seen.status, 200, seen.body)
    const before = await contentState(t.db.db)
    const patched = await as(key).patch(`/v1/canvases/${id('board')}`, {
      links: seen.json.links,
      title: seen.json.title,
    })
    assert.equal(patched.status, 200, patched.body)
    assert.equal(patched.json.updated_at, seen.json.updated_at, key)
    assert.deepEqual(patched.json.links, seen.json.links)
    assert.deepEqual(await contentState(t.db.db), before, `${key}: nothing recorded`)
  }
  const links = await t.db.db
    .selectFrom('canvas_links')
    .select('target_id')
    .where('canvas_id', '=', id('board'))
    .orderBy('position')
    .execute()
  assert.deepEqual(
    links.map((link) => link.target_id),
    [id('t-open'), id('t-secret'), id('o1')],
  )
  // Links a token may not see (a task, for a token without task:read) are kept by an edit.
  const edited = await as('bob-no-tasks').patch(`/v1/canvases/${id('board')}`, { links: [] })
  assert.equal(edited.status, 200, edited.body)
  const kept = await t.db.db
    .selectFrom('canvas_links')
    .select('target_id')
    .where('canvas_id', '=', id('board'))
    .orderBy('position')
    .execute()
  assert.deepEqual(
    kept.map((link) => link.target_id),
    [id('t-open'), id('t-secret')],
  )
})

test('no field names a resource of a type the token may not read', async () => {
  const tasks = await as('tasks-only').post('/v1/search', { query: 'task' })
  assert.equal(tasks.status, 200, tasks.body)
  assert.ok(tasks.json.results.length > 0)
  for (const name of ['Open project', 'Secret project'])
    assert.ok(!tasks.body.includes(name), `a project is named: ${tasks.body}`)
  const comments = await as('comments-only').post('/v1/search', { query: 'achievable' })
  assert.equal(comments.json.results.length, 1, comments.body)
  assert.ok(!comments.body.includes('Grow'), `an objective is named: ${comments.body}`)
  const activity = await allPages(as('activity-only'), '/v1/activity', 100)
  assert.ok(activity.length > 0)
  const named = JSON.stringify(activity)
  for (const title of ['Open task', 'Secret task', 'Launch plan', 'Grow', 'Secret remark'])
    assert.ok(!named.includes(title), `"${title}" is named in activity`)
  assert.ok(activity.every((entry) => entry.subject_title === null))
  const search = await as('activity-only').post('/v1/search', { query: 'created' })
  assert.ok(!search.body.includes('Open task'), search.body)
})

test('a cursor is bound to the resource in its path', async () => {
  for (const sub of ['comments', 'links']) {
    const first = await as('alice-key').get(`/v1/resources/${id('t-secret')}/${sub}?limit=1`)
    assert.equal(first.status, 200, first.body)
    assert.ok(first.json.next_cursor, `${sub} has a second page`)
    const other = await as('alice-key').get(
      `/v1/resources/${id('t-open')}/${sub}?limit=1&cursor=${encodeURIComponent(first.json.next_cursor)}`,
    )
    assert.equal(other.status, 400, `${sub}: ${other.body}`)
    assert.equal(other.json.code, 'invalid_request')
  }
})

test('an unknown value of an enum filter is a 422, on every list', async () => {
  for (const url of [
    '/v1/activity?verbs=foo',
    '/v1/activity?verbs=task.created&verbs=foo',
    '/v1/tasks?status=someday',
    '/v1/projects?status=someday',
  ]) {
    const reply = await as('alice-key').get(url)
    assert.equal(reply.status, 422, `${url}: ${reply.body}`)
    assert.equal(reply.json.code, 'validation_failed')
  }
  assert.equal((await as('alice-key').get('/v1/activity?verbs=task.created')).status, 200)
})
