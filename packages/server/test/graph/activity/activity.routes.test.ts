import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { syncResourceIndex } from '../../../src/access/resource-index.ts'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { removeProjectMember } from '../../harness/access-changes/project-access.commands.ts'
import { importOk, smallBundle, tokenOf } from '../../harness/bundles.ts'
import { allPages, client, startTestApp, type TestApp } from '../../harness/test-app.ts'

let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp()
  const bundle = smallBundle()
  bundle.tasks?.push({
    key: 'done-task',
    title: 'Finished thing',
    status: 'done',
    project: 'open',
    creator: 'bob',
    assignee: 'bob',
    created_at: '2026-05-01T00:00:00Z',
    completed_at: '2026-05-03T00:00:00Z',
  })
  bundle.comments?.push({
    key: 'on-open',
    on: 't-open',
    author: 'bob',
    body: 'A remark',
    at: '2026-05-04T00:00:00Z',
  })
  ws = await importOk(t.db.db, bundle)
})
after(() => t.close())

const as = (key: string) => client(t.app, tokenOf(ws, key))

test('activity is newest first, with current subject titles, and only what the caller may open', async () => {
  const alice = await allPages(as('alice-key'), '/v1/activity', 3)
  const times = alice.map((entry) => entry.created_at)
  assert.deepEqual(times, [...times].sort().reverse())
  assert.ok(alice.some((entry) => entry.subject_id === ws.ids['t-secret']))
  const bob = await allPages(as('bob-key'), '/v1/activity', 100)
  const visible = new Set(bob.map((entry) => entry.subject_id))
  assert.ok(
    !visible.has(ws.ids['t-secret']) && !visible.has(ws.ids.secret) && !visible.has(ws.ids.m1),
    'nothing about the secret project',
  )
  const completed = bob.find((entry) => entry.verb === 'task.completed')
  assert.equal(completed.subject_title, 'Finished thing')
  assert.equal(completed.actor_id, ws.ids.bob)
  assert.equal(completed.created_at, '2026-05-03T00:00:00.000Z')
})

test('filters: verbs, actor, resource, project and since', async () => {
  const api = as('alice-key')
  const verbs = await allPages(api, '/v1/activity?verbs=task.completed&verbs=comment.created', 10)
  assert.ok(
    verbs.length >= 2 &&
      verbs.every((e) => e.verb === 'task.completed' || e.verb === 'comment.created'),
  )
  const byBob = await allPages(api, `/v1/activity?actor_id=${ws.ids.bob}`, 10)
  assert.ok(byBob.length >= 2 && byBob.every((e) => e.actor_id === ws.ids.bob))
  const aboutTask = await allPages(api, `/v1/activity?resource_id=${ws.ids['t-open']}`, 10)
  assert.deepEqual(
    aboutTask.map((e) => e.verb).sort(),
    ['comment.created', 'task.created'],
    'as subject or mentioned',
  )
  const project = await allPages(api, `/v1/projects/${ws.ids.open}/activity`, 10)
  assert.ok(project.every((e) => e.project_id === ws.ids.open))
  const recent = await allPages(api, '/v1/activity?since=2026-05-02T00:00:00Z', 10)
  assert.ok(recent.every((e) => e.created_at >= '2026-05-02'))
})

test('titles come from the current record, never a stored copy', async () => {
  await t.db.db
    .updateTable('tasks')
    .set({ title: 'Renamed thing' })
    .where('id', '=', ws.ids['done-task'] as string)
    .execute()
  await syncResourceIndex(t.db.db, ws.workspace_id, { ids: [ws.ids['done-task'] as string] })
  const entries = await allPages(
    as('bob-key'),
    `/v1/activity?resource_id=${ws.ids['done-task']}`,
    10,
  )
  assert.ok(entries.length === 2 && entries.every((e) => e.subject_title === 'Renamed thing'))
})

test('losing access to a project removes its activity at once; hidden filters are the usual 404', async () => {
  const bot = as('bot-token')
  assert.ok((await allPages(bot, '/v1/activity', 50)).some((e) => e.project_id === ws.ids.secret))
  await t.db.db
    .transaction()
    .execute((trx) =>
      removeProjectMember(trx, ws.workspace_id, ws.ids.secret as string, ws.ids.bot as string),
    )
  assert.equal(
    (await allPages(bot, '/v1/activity', 50)).filter((e) => e.project_id === ws.ids.secret).length,
    0,
  )
  const hidden = await as('bob-key').get(`/v1/projects/${ws.ids.secret}/activity`)
  const unknown = await as('bob-key').get('/v1/projects/prj_00000000000000000000000000/activity')
  assert.equal(hidden.status, 404)
  assert.deepEqual({ ...hidden.json, request_id: null }, { ...unknown.json, request_id: null })
  assert.equal(
    (await as('bob-key').get(`/v1/activity?resource_id=${ws.ids['t-secret']}`)).status,
    404,
  )
  assert.equal((await as('narrow-key').get('/v1/activity')).status, 403)
})
