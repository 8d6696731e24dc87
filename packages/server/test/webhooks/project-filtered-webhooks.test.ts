import assert from 'node:assert/strict'
import { after, before, beforeEach, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.ts'
import { ALL_READ_SCOPES, ALL_WRITE_SCOPES, importOk, smallBundle } from '../harness/bundles.ts'
import { type Receiver, reply, startReceiver } from '../harness/receiver.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// An endpoint filtered to projects hears only of what belongs to them (docs/webhooks.md,
// "Filtering by project"), within what its owner may open.

const EVERYTHING = [
  ...ALL_READ_SCOPES,
  ...ALL_WRITE_SCOPES,
  'webhook:manage',
  'project:write',
  'people:write',
]

let t: TestApp
let ws: ImportResult
let receiver: Receiver
let dispatcher: WebhookDispatcher
const as = (who: string) => client(t.app, ws.api_keys[`${who}-all`]?.token)

before(async () => {
  t = await startTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' } })
  const bundle = smallBundle()
  bundle.api_keys = [
    { key: 'alice-all', person: 'alice', scopes: EVERYTHING },
    { key: 'bob-all', person: 'bob', scopes: EVERYTHING },
    { key: 'olive-all', person: 'olive', scopes: EVERYTHING },
  ]
  ws = await importOk(t.db.db, bundle)
  receiver = await startReceiver()
  dispatcher = new WebhookDispatcher(t.deps, { random: () => 0.5 })
})
after(async () => {
  await dispatcher?.stop(0)
  await receiver?.close()
  await t?.close()
})
beforeEach(() => {
  receiver.received.length = 0
  receiver.fallback = reply(200, {}, 'ok')
})

const heard = (path: string) =>
  receiver.received
    .filter((r) => r.url.endsWith(path))
    .map((r) => `${r.json.type} ${r.json.data.object.id ?? r.json.data.object.project_id}`)
    .sort()

test('an endpoint filtered to a project hears exactly that project and what is in it', async () => {
  const made = await as('alice').post('/v1/webhooks', {
    url: `${receiver.url}/open-only`,
    project_ids: ['Open project'],
  })
  assert.equal(made.status, 201, made.body)
  assert.deepEqual(made.json.project_ids, [ws.ids.open])
  const inside = await as('alice').post('/v1/tasks', { title: 'In', project_id: ws.ids.open })
  const outside = await as('alice').post('/v1/tasks', { title: 'Out', project_id: ws.ids.secret })
  const loose = await as('alice').post('/v1/tasks', { title: 'Loose' })
  const comment = await as('alice').post('/v1/comments', {
    resource_id: inside.json.id,
    body: 'on the inside',
  })
  const renamed = await as('alice').patch(`/v1/projects/${ws.ids.open}`, { name: 'Open again' })
  const team = await as('olive').post('/v1/teams', { name: 'Ops' })
  for (const reply of [inside, outside, loose, comment, renamed, team])
    assert.ok(reply.status < 300, reply.body)
  await dispatcher.drain()
  assert.deepEqual(
    heard('/open-only'),
    [
      `task.created ${inside.json.id}`,
      `comment.created ${comment.json.id}`,
      `project.updated ${ws.ids.open}`,
    ].sort(),
  )
})

test('a filter names only projects its owner may open: else the 404 at its place; null clears it', async () => {
  const hidden = await as('bob').post('/v1/webhooks', {
    url: `${receiver.url}/bob`,
    project_ids: [ws.ids.open, ws.ids.secret],
  })
  assert.equal(hidden.status, 404, hidden.body)
  assert.equal(hidden.json.errors[0].path, '/project_ids/1')
  const unknown = await as('bob').post('/v1/webhooks', {
    url: `${receiver.url}/bob`,
    project_ids: ['prj_0000000000000000000000'],
  })
  assert.deepEqual(
    { ...unknown.json, request_id: null },
    {
      ...hidden.json,
      request_id: null,
      errors: [{ ...hidden.json.errors[0], path: '/project_ids/0' }],
    },
  )
  const made = await as('bob').post('/v1/webhooks', {
    url: `${receiver.url}/bob`,
    project_ids: [ws.ids.open],
  })
  assert.equal(made.status, 201, made.body)
  const cleared = await as('bob').patch(`/v1/webhooks/${made.json.id}`, { project_ids: null })
  assert.equal(cleared.status, 200, cleared.body)
  assert.equal(cleared.json.project_ids, null)
})

test('a project its owner can no longer open leaves the filter as the owner reads it', async () => {
  const project = await as('alice').post('/v1/projects', {
    name: 'Soon gone',
    visibility: 'private',
  })
  await as('alice').post(`/v1/projects/${project.json.id}/members`, { person_id: 'Bob Member' })
  const made = await as('bob').post('/v1/webhooks', {
    url: `${receiver.url}/bob-gone`,
    project_ids: [project.json.id],
  })
  assert.equal(made.status, 201, made.body)
  const removed = await as('alice').delete(`/v1/projects/${project.json.id}/members/${ws.ids.bob}`)
  assert.equal(removed.status, 200, removed.body)
  const read = await as('bob').get(`/v1/webhooks/${made.json.id}`)
  assert.deepEqual(read.json.project_ids, [])
  await as('alice').post('/v1/tasks', { title: 'Unseen', project_id: project.json.id })
  await dispatcher.drain()
  assert.deepEqual(heard('/bob-gone'), [])
})
