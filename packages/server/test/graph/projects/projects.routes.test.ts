import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { importOk, smallBundle, tokenOf } from '../../harness/bundles.ts'
import { allPages, client, startTestApp, type TestApp } from '../../harness/test-app.ts'

let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, smallBundle())
})
after(() => t.close())

const names = (projects: { name: string }[]) => projects.map((p) => p.name).sort()

test('members see workspace projects and the private ones they belong to', async () => {
  const alice = await client(t.app, tokenOf(ws, 'alice-key')).get('/v1/projects')
  assert.equal(alice.status, 200)
  assert.deepEqual(names(alice.json.data), ['Open project', 'Secret project'])
  const bob = await client(t.app, tokenOf(ws, 'bob-key')).get('/v1/projects')
  assert.deepEqual(names(bob.json.data), ['Open project'])
})

test('admins and owners get no private content by virtue of their role', async () => {
  for (const key of ['olive-key', 'adam-key']) {
    const reply = await client(t.app, tokenOf(ws, key)).get('/v1/projects')
    assert.deepEqual(names(reply.json.data), ['Open project'], key)
  }
})

test('guests see only projects they belong to; integrations only what is shared with them', async () => {
  const gus = await client(t.app, tokenOf(ws, 'gus-key')).get('/v1/projects')
  assert.deepEqual(names(gus.json.data), ['Open project'])
  const bot = await client(t.app, tokenOf(ws, 'bot-token')).get('/v1/projects')
  assert.deepEqual(names(bot.json.data), ['Secret project'])
})

test('another workspace is invisible', async () => {
  const other = await importOk(t.db.db, smallBundle({ workspace: { key: 'other', name: 'Other' } }))
  const reply = await client(t.app, tokenOf(other, 'alice-key')).get('/v1/projects')
  assert.ok(reply.json.data.every((p: { id: string }) => Object.values(other.ids).includes(p.id)))
})

test('a project record has the documented fields and only visible people', async () => {
  const reply = await client(t.app, tokenOf(ws, 'gus-key')).get('/v1/projects')
  const [project] = reply.json.data
  assert.deepEqual(Object.keys(project).sort(), [
    'api_url',
    'created_at',
    'description',
    'id',
    'member_ids',
    'name',
    'owner_id',
    'status',
    'team_ids',
    'type',
    'updated_at',
    'url',
    'visibility',
  ])
  assert.equal(project.type, 'project')
  assert.equal(project.url, `${t.deps.config.appUrl}/${ws.workspace_id}/project/${ws.ids.open}`)
  assert.equal(project.api_url, `http://127.0.0.1:8080/v1/resources/${ws.ids.open}`)
  // api_url is the record itself: following it gives this very record back.
  const followed = await client(t.app, tokenOf(ws, 'gus-key')).get(
    new URL(project.api_url).pathname,
  )
  assert.equal(followed.json.id, project.id)
  assert.deepEqual(project.member_ids, [ws.ids.gus])
  // The owner is not a member of the open project: a guest cannot see her.
  assert.equal(project.owner_id, null)
  const alice = await client(t.app, tokenOf(ws, 'alice-key')).get('/v1/projects')
  const secret = alice.json.data.find((p: { name: string }) => p.name === 'Secret project')
  assert.deepEqual(secret.member_ids, [ws.ids.alice])
  assert.deepEqual(secret.team_ids, [ws.ids.eng])
  assert.equal(secret.owner_id, ws.ids.alice)
})

test('paging walks every project once, newest first, with no short pages', async () => {
  const projects = Array.from({ length: 23 }, (_, i) => ({
    key: `p${i}`,
    name: `Project ${String(i).padStart(2, '0')}`,
    status: i % 2 ? ('active' as const) : ('paused' as const),
    visibility: 'workspace' as const,
    owner: 'alice',
    // Several share a timestamp, so the id must break ties.
    created_at: `2026-03-${String(1 + Math.floor(i / 3)).padStart(2, '0')}T00:00:00Z`,
  }))
  const many = await importOk(
    t.db.db,
    smallBundle({
      workspace: { key: 'many', name: 'Many' },
      projects,
      canvases: [],
      tasks: [],
      comments: [],
      okrs: [],
    }),
  )
  const api = client(t.app, tokenOf(many, 'alice-key'))
  for (const limit of [1, 2, 5, 23, 100]) {
    const all = await allPages(api, '/v1/projects', limit)
    assert.equal(all.length, 23, `limit ${limit}`)
    assert.equal(new Set(all.map((p) => p.id)).size, 23)
    const keys = all.map((p) => [p.created_at, p.id])
    const sorted = [...keys].sort((a, b) =>
      a[0] === b[0] ? (a[1] < b[1] ? 1 : -1) : a[0] < b[0] ? 1 : -1,
    )
    assert.deepEqual(keys, sorted)
  }
  const active = await allPages(api, '/v1/projects?status=active', 4)
  assert.equal(active.length, 11)
  const both = await allPages(api, '/v1/projects?status=active&status=paused', 4)
  assert.equal(both.length, 23)
})

test('a cursor is bound to its token and filters', async () => {
  const alice = client(t.app, tokenOf(ws, 'alice-key'))
  const first = await alice.get('/v1/projects?limit=1')
  const cursor = encodeURIComponent(first.json.next_cursor)
  assert.equal((await alice.get(`/v1/projects?limit=1&cursor=${cursor}`)).status, 200)
  assert.equal((await alice.get(`/v1/projects?limit=1&status=active&cursor=${cursor}`)).status, 400)
  assert.equal(
    (await client(t.app, tokenOf(ws, 'bob-key')).get(`/v1/projects?limit=1&cursor=${cursor}`))
      .status,
    400,
  )
})

test('the project list needs project:read', async () => {
  const reply = await client(t.app, tokenOf(ws, 'narrow-key')).get('/v1/projects')
  assert.equal(reply.status, 403)
  assert.deepEqual(reply.json.required_scopes, ['project:read'])
})
