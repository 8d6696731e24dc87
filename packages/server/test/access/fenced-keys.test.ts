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
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { allPages, client, startTestApp, type TestApp } from '../harness/test-app.ts'

/*
 * API keys fenced to projects and time (docs/permissions.md, "Fenced credentials"), written as an
 * attacker would probe them: a fenced key must never see, count or mint past its fence or its end.
 */

let t: TestApp
let ws: ImportResult
const MANAGE = [...ALL_READ_SCOPES, ...ALL_WRITE_SCOPES, 'token:manage']
const HOUR = 3_600_000
before(async () => {
  t = await startTestApp()
  const bundle = smallBundle()
  bundle.api_keys = [
    { key: 'alice-key', person: 'alice', scopes: MANAGE },
    { key: 'bob-key', person: 'bob', scopes: MANAGE },
  ]
  ws = await importOk(t.db.db, bundle)
})
after(() => t.close())

const alice = () => client(t.app, tokenOf(ws, 'alice-key'))
const bob = () => client(t.app, tokenOf(ws, 'bob-key'))
const id = (key: string) => ws.ids[key] as string

async function recordOf(keyId: string) {
  const tokens = await allPages(alice(), '/v1/tokens', 100)
  return tokens.find((token) => token.id === keyId)
}

async function fencedKey(
  api: ReturnType<typeof client>,
  body: Record<string, unknown>,
): Promise<{ id: string; token: string; project_ids: string[] | null; expires_at: string | null }> {
  const created = await api.post('/v1/api-keys', { name: 'fenced', scopes: MANAGE, ...body })
  assert.equal(created.status, 201, created.body)
  return created.json
}

test('a key fenced to one project opens only it and what belongs to it, as if nothing else existed', async () => {
  const key = await fencedKey(alice(), { project_ids: [id('secret')] })
  assert.deepEqual(key.project_ids, [id('secret')])
  const fenced = client(t.app, key.token)
  const ids = (items: { id: string }[]) => items.map((item) => item.id).sort()
  assert.deepEqual(ids(await allPages(fenced, '/v1/projects', 10)), [id('secret')])
  assert.deepEqual(ids(await allPages(fenced, '/v1/tasks', 10)), [id('t-secret')])
  assert.deepEqual(ids(await allPages(fenced, '/v1/canvases', 10)), [id('plan')])
  // The objective is linked to no project: outside every fence.
  assert.deepEqual(await allPages(fenced, '/v1/okrs', 10), [])
  for (const outside of ['open', 't-open', 'o1']) {
    const record = await fenced.get(`/v1/resources/${id(outside)}`)
    assert.equal(record.status, 404, `${outside}: ${record.body}`)
    const unknown = await fenced.get(`/v1/resources/${id(outside).slice(0, 4)}zzzzzzzzzzzzzzzzzz`)
    assert.deepEqual(
      { ...record.json, instance: null, request_id: null },
      { ...unknown.json, instance: null, request_id: null },
    )
  }
  assert.equal((await fenced.get(`/v1/resources/${id('t-secret')}`)).status, 200)
  // People and teams stay visible as for the person.
  assert.deepEqual(
    ids(await allPages(fenced, '/v1/people', 10)),
    ids(await allPages(alice(), '/v1/people', 10)),
  )
  // Search finds nothing outside, and its facets count nothing outside.
  const search = await fenced.post('/v1/search', { query: 'task', limit: 20 })
  assert.equal(search.status, 200, search.body)
  const hits: string[] = search.json.results.map((hit: { id: string }) => hit.id)
  assert.deepEqual(
    hits.filter((hit) => hit.startsWith('tsk_')),
    [id('t-secret')],
  )
  const outside = await alice().post('/v1/search', { query: 'open task', limit: 20 })
  assert.ok(outside.json.results.some((hit: { id: string }) => hit.id === id('t-open')))
  const fencedOutside = await fenced.post('/v1/search', { query: 'open task', limit: 20 })
  assert.ok(!JSON.stringify(fencedOutside.json).includes(id('t-open')))
  // The activity feed names only what is inside.
  for (const entry of await allPages(fenced, '/v1/activity', 50))
    assert.ok([id('secret'), id('t-secret'), id('plan'), id('m1')].includes(entry.subject_id))
  // The key record shows the fence.
  const listed = await recordOf(key.id)
  assert.deepEqual(listed.project_ids, [id('secret')])
  // MCP tools see through the same fence.
  const outsideFetch = await callToolInProcess(t.app, key.token, 'fetch', { id: id('t-open') })
  assert.equal(outsideFetch.isError, true)
  const inside = await callToolInProcess(t.app, key.token, 'fetch', { id: id('t-secret') })
  assert.equal(inside.isError, undefined, JSON.stringify(inside))
  const listed2 = await callToolInProcess(t.app, key.token, 'list', { type: 'project' })
  assert.doesNotMatch(JSON.stringify(listed2), new RegExp(id('open')))
})

test('a fenced key writes only inside its fence; outside, ids answer as unknown ones', async () => {
  const key = await fencedKey(alice(), { project_ids: [id('secret')] })
  const fenced = client(t.app, key.token)
  const outside = await fenced.post('/v1/tasks', { title: 'x', project_id: id('open') })
  const unknown = await fenced.post('/v1/tasks', {
    title: 'x',
    project_id: 'prj_0000000000000000000000',
  })
  assert.equal(outside.status, unknown.status, outside.body)
  assert.deepEqual(outside.json.errors, unknown.json.errors)
  const comment = await fenced.post('/v1/comments', { resource_id: id('t-open'), body: 'x' })
  assert.equal(comment.status, 404, comment.body)
  const inside = await fenced.post('/v1/tasks', { title: 'inside', project_id: id('secret') })
  assert.equal(inside.status, 201, inside.body)
})

test('an unfenced key records null and sees everything its person does', async () => {
  const key = await fencedKey(alice(), {})
  assert.equal(key.project_ids, null)
  assert.equal(key.expires_at, null)
  const projects = await allPages(client(t.app, key.token), '/v1/projects', 10)
  assert.equal(projects.length, 2)
})

test('bad fences and ends are 422 and create nothing; a hidden project is refused like an unknown one', async () => {
  const count = async () => (await allPages(bob(), '/v1/tokens', 100)).length
  const before = await count()
  const now = t.clock.now().getTime()
  const cases: [Record<string, unknown>, number][] = [
    [{ project_ids: [] }, 422],
    [{ project_ids: [id('open'), id('open')] }, 422],
    [{ project_ids: 'prj_x' }, 422],
    [{ project_ids: [id('t-open')] }, 422],
    [{ project_ids: Array.from({ length: 101 }, (_, i) => `prj_${i}`) }, 422],
    [{ expires_at: 'tomorrow' }, 422],
    [{ expires_at: new Date(now).toISOString() }, 422],
    [{ expires_at: new Date(now - 1000).toISOString() }, 422],
    [{ expires_at: new Date(now + 366 * 24 * HOUR).toISOString() }, 422],
  ]
  for (const [body, status] of cases) {
    const reply = await bob().post('/v1/api-keys', { name: 'x', scopes: MANAGE, ...body })
    assert.equal(reply.status, status, `${JSON.stringify(body)}: ${reply.body}`)
  }
  // Bob cannot open the secret project: refused exactly as an id that names nothing.
  const hidden = await bob().post('/v1/api-keys', {
    name: 'x',
    scopes: MANAGE,
    project_ids: [id('open'), id('secret')],
  })
  const unknown = await bob().post('/v1/api-keys', {
    name: 'x',
    scopes: MANAGE,
    project_ids: [id('open'), 'prj_0000000000000000000000'],
  })
  assert.equal(hidden.status, 422)
  assert.deepEqual(
    { ...hidden.json, instance: null, request_id: null },
    { ...unknown.json, instance: null, request_id: null },
  )
  assert.deepEqual(hidden.json.errors, [
    { path: '/project_ids/1', message: 'project_ids[1] names no project this token can open.' },
  ])
  assert.equal(await count(), before)
})

test('a key made by a fenced key is fenced within it, and never outlives it', async () => {
  const end = new Date(t.clock.now().getTime() + 48 * HOUR)
  const parent = await fencedKey(alice(), {
    project_ids: [id('secret')],
    expires_at: end.toISOString(),
  })
  assert.equal(parent.expires_at, end.toISOString())
  const api = client(t.app, parent.token)
  // Nothing asked: the parent's fence and end.
  const child = await fencedKey(api, {})
  assert.deepEqual(child.project_ids, [id('secret')])
  assert.equal(child.expires_at, end.toISOString())
  // A project outside the parent's fence is as unknown to it.
  const wider = await api.post('/v1/api-keys', {
    name: 'x',
    scopes: MANAGE,
    project_ids: [id('open')],
  })
  assert.equal(wider.status, 422, wider.body)
  // A later end is cut to the parent's; an earlier one is kept.
  const later = await fencedKey(api, {
    expires_at: new Date(end.getTime() + 24 * HOUR).toISOString(),
  })
  assert.equal(later.expires_at, end.toISOString())
  const earlier = new Date(end.getTime() - 24 * HOUR).toISOString()
  assert.equal((await fencedKey(api, { expires_at: earlier })).expires_at, earlier)
  // Rotation keeps the fence and the end, whoever rotates.
  const rotated = await alice().post(`/v1/api-keys/${child.id}/rotate`, { overlap_seconds: 60 })
  assert.equal(rotated.status, 200, rotated.body)
  assert.deepEqual(rotated.json.project_ids, [id('secret')])
  assert.equal(rotated.json.expires_at, end.toISOString())
  // A fenced key does not cover an unfenced key: it can neither see nor rotate it.
  const open = await fencedKey(alice(), {})
  const hidden = await api.post(`/v1/api-keys/${open.id}/rotate`, { overlap_seconds: 0 })
  assert.equal(hidden.status, 404, hidden.body)
  assert.ok(!(await allPages(api, '/v1/tokens', 100)).some((token) => token.id === open.id))
})

test('a key past its end answers 401 token_expired on /v1 and on MCP', async () => {
  const key = await fencedKey(alice(), {
    expires_at: new Date(t.clock.now().getTime() + HOUR).toISOString(),
  })
  const api = client(t.app, key.token)
  assert.equal((await api.get('/v1/projects')).status, 200)
  const mcp = () =>
    t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        authorization: `Bearer ${key.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    })
  assert.equal((await mcp()).statusCode, 200)
  t.clock.advance(HOUR - 1)
  assert.equal((await api.get('/v1/projects')).status, 200)
  t.clock.advance(1)
  const expired = await api.get('/v1/projects')
  assert.equal(expired.status, 401)
  assert.equal(expired.json.code, 'token_expired')
  assert.match(String(expired.headers['www-authenticate']), /invalid_token/)
  const overMcp = await mcp()
  assert.equal(overMcp.statusCode, 401)
  assert.equal(JSON.parse(overMcp.body).code, 'token_expired')
  assert.equal((await recordOf(key.id)).status, 'expired')
})
