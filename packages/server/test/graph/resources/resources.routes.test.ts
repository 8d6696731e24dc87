import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { importOk, smallBundle, tokenOf } from '../../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'

let t: TestApp
let ws: ImportResult
let other: ImportResult
before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, smallBundle())
  other = await importOk(t.db.db, smallBundle({ workspace: { key: 'other', name: 'Other' } }))
})
after(() => t.close())

const as = (key: string) => client(t.app, tokenOf(ws, key))
const withoutRequestId = (json: Record<string, unknown>) => ({ ...json, request_id: null })

test('hidden, unknown, malformed and foreign ids get byte-identical 404s, on every route', async () => {
  const bob = as('bob-key')
  const hidden = ws.ids['t-secret'] as string
  const ids = [
    hidden,
    'tsk_00000000000000000000000000',
    'not-an-id',
    other.ids['t-open'] as string,
    ws.ids.plan as string,
    ws.ids.m1 as string,
  ]
  for (const suffix of ['', '/links', '/comments']) {
    const bodies = new Set<string>()
    for (const id of ids) {
      const reply = await bob.get(`/v1/resources/${encodeURIComponent(id)}${suffix}`)
      assert.equal(reply.status, 404, `${id}${suffix}`)
      bodies.add(JSON.stringify(withoutRequestId(reply.json)))
      assert.equal(reply.headers['content-length'], String(reply.body.length))
    }
    assert.equal(
      bodies.size,
      1,
      `one 404 body for ${suffix || 'records'}: ${[...bodies].join('\n')}`,
    )
  }
})

test('a filter naming a hidden project or person is the same 404 as one naming nothing', async () => {
  const gus = as('gus-key')
  const filters: [string, string[]][] = [
    [
      '/v1/tasks?project_id=',
      [
        ws.ids.secret as string,
        'prj_00000000000000000000000000',
        other.ids.open as string,
        ws.ids.alice as string,
      ],
    ],
    ['/v1/canvases?project_id=', [ws.ids.secret as string, 'prj_00000000000000000000000000']],
    [
      '/v1/tasks?assignee_id=',
      [ws.ids.bob as string, 'usr_00000000000000000000000000', other.ids.gus as string],
    ],
    ['/v1/people?team_id=', [ws.ids.eng as string, 'team_00000000000000000000000000']],
  ]
  for (const [url, values] of filters) {
    const bodies = new Set<string>()
    for (const value of values) {
      const reply = await gus.get(`${url}${value}`)
      assert.equal(reply.status, 404, `${url}${value}`)
      bodies.add(JSON.stringify(withoutRequestId(reply.json)))
    }
    assert.equal(bodies.size, 1, url)
  }
})

test('records have the documented fields; links never name what the caller cannot see', async () => {
  const task = (await as('alice-key').get(`/v1/resources/${ws.ids['t-secret']}`)).json
  assert.deepEqual(Object.keys(task).sort(), [
    'api_url',
    'assignee_id',
    'canvas_id',
    'completed_at',
    'created_at',
    'creator_id',
    'description',
    'due',
    'id',
    'overdue',
    'parent_id',
    'project_id',
    'status',
    'title',
    'type',
    'updated_at',
    'url',
  ])
  assert.equal(task.canvas_id, ws.ids.plan)
  const okr = (await as('gus-key').get('/v1/okrs')).json.data
  assert.equal(okr.length, 0, 'guests do not see workspace OKRs')
  const objective = (await as('bob-key').get(`/v1/resources/${ws.ids.o1}`)).json
  assert.equal(objective.key_results[0].progress, 0.4)
  assert.equal(objective.progress, 0.4)
  const kr = (await as('bob-key').get(`/v1/resources/${ws.ids.kr1}`)).json
  assert.equal(kr.type, 'key_result')
  assert.equal(kr.objective_id, ws.ids.o1)
  const person = (await as('gus-key').get(`/v1/people/${ws.ids.gus}`)).json
  assert.equal(person.email, null, 'guests see no email addresses')
  assert.equal((await as('bob-key').get(`/v1/people/${ws.ids.gus}`)).json.email, 'gus@partner.test')
  assert.equal((await as('gus-key').get(`/v1/people/${ws.ids.bob}`)).status, 404)
})

test('links name only neighbours of types the token may read', async () => {
  const full = await as('alice-key').get(`/v1/resources/${ws.ids['t-secret']}/links`)
  assert.deepEqual(full.json.data.map((l: { rel: string }) => l.rel).sort(), [
    'canvas',
    'creator',
    'linked_from',
    'project',
  ])
  const narrow = await as('narrow-key').get(`/v1/resources/${ws.ids['t-secret']}/links`)
  assert.equal(narrow.status, 200)
  assert.deepEqual(
    narrow.json.data,
    [],
    'a task:read token sees no project, canvas or person links',
  )
  const link = full.json.data.find((l: { rel: string }) => l.rel === 'project')
  assert.deepEqual(link, {
    rel: 'project',
    id: ws.ids.secret,
    type: 'project',
    title: 'Secret project',
    url: `${t.deps.config.appUrl}/${ws.workspace_id}/project/${ws.ids.secret}`,
    api_url: `http://127.0.0.1:8080/v1/resources/${ws.ids.secret}`,
  })
})

test('scopes are checked per kind of id, before anything is looked up', async () => {
  const narrow = as('narrow-key')
  assert.equal((await narrow.get(`/v1/resources/${ws.ids['t-secret']}`)).status, 200)
  for (const id of [
    ws.ids.secret,
    ws.ids.plan,
    ws.ids.o1,
    ws.ids.alice,
    'prj_00000000000000000000000000',
  ]) {
    const reply = await narrow.get(`/v1/resources/${id}`)
    assert.equal(reply.status, 403, String(id))
    assert.equal(reply.json.required_scopes.length, 1)
  }
  assert.equal((await narrow.get('/v1/resources/zzz_unknown')).status, 404)
  assert.equal((await narrow.get(`/v1/resources/${ws.ids['t-secret']}/comments`)).status, 403)
})

test('comments come oldest first with replies pointing at their parent', async () => {
  const bundle = smallBundle({ workspace: { key: 'threads', name: 'Threads' } })
  bundle.comments = [
    { key: 'c1', on: 't-open', author: 'alice', body: 'First', at: '2026-11-20T10:00:00Z' },
    {
      key: 'c2',
      on: 't-open',
      author: 'bob',
      body: 'Reply',
      parent: 'c1',
      at: '2026-11-20T11:00:00Z',
    },
    { key: 'c3', on: 't-open', author: 'gus', body: 'Later', at: '2026-11-21T09:00:00Z' },
  ]
  const threads = await importOk(t.db.db, bundle)
  const reply = await client(t.app, tokenOf(threads, 'gus-key')).get(
    `/v1/resources/${threads.ids['t-open']}/comments?limit=2`,
  )
  assert.deepEqual(
    reply.json.data.map((c: { body: string }) => c.body),
    ['First', 'Reply'],
  )
  assert.equal(reply.json.data[1].parent_id, threads.ids.c1)
  assert.ok(reply.json.next_cursor)
})
