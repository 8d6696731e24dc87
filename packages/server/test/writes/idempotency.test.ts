import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import {
  claimKey,
  completeKey,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_WINDOW_MS,
  sweepExpiredKeys,
} from '../../src/writes/idempotency-store.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

let t: TestApp
let ws: ImportResult
const id = (key: string) => ws.ids[key] as string
const as = (key: string) => client(t.app, tokenOf(ws, key))
let keys = 0
const newKey = () => `key-${++keys}-${Math.random().toString(36).slice(2)}`
const withKey = (key: string) => ({ 'idempotency-key': key })

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, writableBundle())
})
after(() => t.close())

async function tasksTitled(title: string) {
  return t.db.db.selectFrom('tasks').select('id').where('title', '=', title).execute()
}

async function eventsAbout(ids: string[]) {
  if (ids.length === 0) return []
  return t.db.db.selectFrom('events').select('type').where('subject_id', 'in', ids).execute()
}

test('a retry with the same key replays the first response byte for byte', async () => {
  const key = newKey()
  const body = { title: 'Replay me', project_id: id('open') }
  const first = await as('alice-key').post('/v1/tasks', body, withKey(key))
  assert.equal(first.status, 201)
  assert.equal(first.headers['idempotent-replayed'], undefined)
  t.clock.advance(5000)
  const second = await as('alice-key').post('/v1/tasks', body, withKey(key))
  assert.equal(second.status, 201)
  assert.equal(second.headers['idempotent-replayed'], 'true')
  assert.equal(second.body, first.body)
  assert.equal(second.headers['content-type'], first.headers['content-type'])
  const tasks = await tasksTitled('Replay me')
  assert.equal(tasks.length, 1)
  assert.equal((await eventsAbout(tasks.map((x) => x.id))).length, 1)
})

test('the same JSON with keys reordered and other spacing is the same request', async () => {
  const key = newKey()
  const first = await as('alice-key').send({
    method: 'POST',
    url: '/v1/tasks',
    headers: { ...withKey(key), 'content-type': 'application/json' },
    payload: '{"title":"Reordered","due":"2026-12-01","project_id":"' + id('open') + '"}',
  })
  const second = await as('alice-key').send({
    method: 'POST',
    url: '/v1/tasks',
    headers: { ...withKey(key), 'content-type': 'application/json' },
    payload: `{ "project_id": "${id('open')}",\n  "due": "2026-12-01", "title": "Reordered" }`,
  })
  assert.equal(first.status, 201)
  assert.equal(second.headers['idempotent-replayed'], 'true')
  assert.equal(second.body, first.body)
  assert.equal((await tasksTitled('Reordered')).length, 1)
})

test('the same key with another body or on another route is 422 idempotency_key_reused', async () => {
  const key = newKey()
  assert.equal((await as('alice-key').post('/v1/tasks', { title: 'A' }, withKey(key))).status, 201)
  const changed = await as('alice-key').post('/v1/tasks', { title: 'B' }, withKey(key))
  assert.equal(changed.status, 422)
  assert.equal(changed.json.code, 'idempotency_key_reused')
  const route = await as('alice-key').post(
    '/v1/comments',
    { resource_id: id('open'), body: 'A' },
    withKey(key),
  )
  assert.equal(route.status, 422)
  assert.equal(route.json.code, 'idempotency_key_reused')
  assert.equal((await tasksTitled('B')).length, 0)
})

test('keys belong to a token: another token with the same key runs its own request', async () => {
  const key = newKey()
  const body = { title: 'Per token', project_id: id('open') }
  const alice = await as('alice-key').post('/v1/tasks', body, withKey(key))
  const bob = await as('bob-key').post('/v1/tasks', body, withKey(key))
  assert.equal(alice.status, 201)
  assert.equal(bob.status, 201)
  assert.equal(bob.headers['idempotent-replayed'], undefined)
  assert.notEqual(bob.json.id, alice.json.id)
  assert.equal(bob.json.creator_id, id('bob'))
})

test('50 concurrent requests with one key create one task and one event', async () => {
  const key = newKey()
  const body = { title: 'Stampede', project_id: id('open') }
  const replies = await Promise.all(
    Array.from({ length: 50 }, () => as('alice-key').post('/v1/tasks', body, withKey(key))),
  )
  const fresh = replies.filter((r) => r.status === 201 && !r.headers['idempotent-replayed'])
  const replayed = replies.filter((r) => r.headers['idempotent-replayed'] === 'true')
  const inUse = replies.filter((r) => r.status === 409)
  assert.equal(fresh.length, 1)
  assert.equal(replayed.length + inUse.length, 49)
  for (const r of replayed) assert.equal(r.body, fresh[0]?.body)
  for (const r of inUse) {
    assert.equal(r.json.code, 'idempotency_key_in_use')
    assert.equal(r.headers['retry-after'], '1')
  }
  const tasks = await tasksTitled('Stampede')
  assert.equal(tasks.length, 1)
  assert.deepEqual(
    (await eventsAbout(tasks.map((x) => x.id))).map((e) => e.type),
    ['task.created'],
  )
})

test('a key is remembered for 24 hours from its first request, then it is new', async () => {
  const key = newKey()
  const body = { title: 'Window', project_id: id('open') }
  const first = await as('alice-key').post('/v1/tasks', body, withKey(key))
  t.clock.advance(24 * 3600_000 - 60_000)
  const late = await as('alice-key').post('/v1/tasks', body, withKey(key))
  assert.equal(late.headers['idempotent-replayed'], 'true')
  assert.equal(late.body, first.body)
  t.clock.advance(120_000)
  const anew = await as('alice-key').post('/v1/tasks', body, withKey(key))
  assert.equal(anew.status, 201)
  assert.equal(anew.headers['idempotent-replayed'], undefined)
  assert.notEqual(anew.json.id, first.json.id)
  assert.equal((await tasksTitled('Window')).length, 2)
})

test('a failure after the write rolls everything back and releases the key; the retry runs once', async () => {
  const key = newKey()
  const body = { title: 'Fails once', project_id: id('open') }
  const activityBefore = await t.db.db.selectFrom('activity').select('id').execute()
  t.deps.writeHooks.beforeCommit = async () => {
    throw new Error('injected failure before commit')
  }
  try {
    const failed = await as('alice-key').post('/v1/tasks', body, withKey(key))
    assert.equal(failed.status, 500)
    assert.equal(failed.json.code, 'internal_error')
  } finally {
    t.deps.writeHooks.beforeCommit = undefined
  }
  assert.equal((await tasksTitled('Fails once')).length, 0)
  const activityAfter = await t.db.db.selectFrom('activity').select('id').execute()
  assert.equal(activityAfter.length, activityBefore.length)
  const retry = await as('alice-key').post('/v1/tasks', body, withKey(key))
  assert.equal(retry.status, 201)
  assert.equal(retry.headers['idempotent-replayed'], undefined)
  const again = await as('alice-key').post('/v1/tasks', body, withKey(key))
  assert.equal(again.headers['idempotent-replayed'], 'true')
  const tasks = await tasksTitled('Fails once')
  assert.equal(tasks.length, 1)
  assert.equal((await eventsAbout(tasks.map((x) => x.id))).length, 1)
})

test('a business 4xx is stored and replayed; a request refused before it ran is not', async () => {
  const key = newKey()
  const hidden = { title: 'Hidden', project_id: id('secret') }
  const first = await as('bob-key').post('/v1/tasks', hidden, withKey(key))
  assert.equal(first.status, 404)
  const second = await as('bob-key').post('/v1/tasks', hidden, withKey(key))
  assert.equal(second.status, 404)
  assert.equal(second.headers['idempotent-replayed'], 'true')
  assert.equal(second.body, first.body)
  assert.match(String(second.headers['content-type']), /^application\/problem\+json/)

  const other = newKey()
  const invalid = await as('bob-key').post('/v1/tasks', { title: '' }, withKey(other))
  assert.equal(invalid.status, 422)
  const corrected = await as('bob-key').post('/v1/tasks', { title: 'Fixed' }, withKey(other))
  assert.equal(corrected.status, 201)
  assert.equal(corrected.headers['idempotent-replayed'], undefined)
})

test('malformed keys are 400 and change nothing; a quoted key is accepted; GET ignores keys', async () => {
  for (const bad of ['', 'x'.repeat(256), 'has space', 'ключ', 'a/b', '"unterminated']) {
    const reply = await as('alice-key').post('/v1/tasks', { title: 'Bad key' }, withKey(bad))
    assert.equal(reply.status, 400, `key ${JSON.stringify(bad)}`)
    assert.equal(reply.json.code, 'invalid_request')
  }
  assert.equal((await tasksTitled('Bad key')).length, 0)
  const quoted = await as('alice-key').post('/v1/tasks', { title: 'Quoted' }, withKey('"q-1"'))
  assert.equal(quoted.status, 201)
  const bare = await as('alice-key').post('/v1/tasks', { title: 'Quoted' }, withKey('q-1'))
  assert.equal(bare.headers['idempotent-replayed'], 'true')
  assert.equal((await as('alice-key').get('/v1/tasks', withKey('bad key'))).status, 200)
})

test('a stored response holding a one-time secret is encrypted at rest', async () => {
  const key = newKey()
  const body = { name: 'CI key', scopes: ['task:read'] }
  const first = await as('olive-key').post('/v1/api-keys', body, withKey(key))
  assert.equal(first.status, 201, first.body)
  const secret = first.json.token as string
  const rows = await t.db.db.selectFrom('idempotency_keys').selectAll().execute()
  assert.ok(rows.length > 0)
  for (const row of rows) {
    assert.ok(!row.response_body?.includes(secret))
    assert.ok(!row.response_body?.includes('wg_key_'))
  }
  const replay = await as('olive-key').post('/v1/api-keys', body, withKey(key))
  assert.equal(replay.body, first.body)
  const created = await t.db.db
    .selectFrom('tokens')
    .select('id')
    .where('name', '=', 'CI key')
    .execute()
  assert.equal(created.length, 1)
})

test('an abandoned claim blocks retries until its lease ends, then a retry takes it over', async () => {
  const scope = {
    workspaceId: ws.workspace_id,
    tokenId: ws.api_keys['alice-key']?.id as string,
    key: newKey(),
  }
  const now = t.clock.now()
  const crashed = await claimKey(t.db.db, scope, 'fingerprint', t.deps.secrets, now)
  assert.equal(crashed.kind, 'claimed')
  assert.equal(
    (await claimKey(t.db.db, scope, 'fingerprint', t.deps.secrets, now)).kind,
    'in_progress',
  )
  const later = new Date(now.getTime() + IDEMPOTENCY_LEASE_MS + 1)
  const takeover = await claimKey(t.db.db, scope, 'fingerprint', t.deps.secrets, later)
  assert.equal(takeover.kind, 'claimed')
  // The first executor wakes up: its completion is fenced off, so it must roll back.
  if (crashed.kind !== 'claimed' || takeover.kind !== 'claimed') return
  const response = { status: 201, body: '{}' }
  assert.equal(await completeKey(t.db.db, crashed.claim, response, t.deps.secrets), false)
  assert.equal(await completeKey(t.db.db, takeover.claim, response, t.deps.secrets), true)
})

test('the sweep deletes keys past their 24 hours and nothing else', async () => {
  const scope = {
    workspaceId: ws.workspace_id,
    tokenId: ws.api_keys['bob-key']?.id as string,
    key: newKey(),
  }
  const now = t.clock.now()
  await claimKey(t.db.db, scope, 'old', t.deps.secrets, now)
  const fresh = { ...scope, key: newKey() }
  const later = new Date(now.getTime() + IDEMPOTENCY_WINDOW_MS)
  await claimKey(t.db.db, fresh, 'new', t.deps.secrets, new Date(later.getTime() - 1000))
  assert.ok((await sweepExpiredKeys(t.db.db, later)) >= 1)
  const left = await t.db.db
    .selectFrom('idempotency_keys')
    .select('key')
    .where('key', 'in', [scope.key, fresh.key])
    .execute()
  assert.deepEqual(
    left.map((row) => row.key),
    [fresh.key],
  )
})
