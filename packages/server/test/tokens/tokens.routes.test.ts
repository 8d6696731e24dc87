import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { ALL_READ_SCOPES, importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import { allPages, client, startTestApp, type TestApp } from '../harness/test-app.ts'

let t: TestApp
let ws: ImportResult
const MANAGE = [...ALL_READ_SCOPES, 'token:manage']
before(async () => {
  t = await startTestApp()
  const bundle = smallBundle()
  bundle.api_keys = [
    { key: 'olive-key', person: 'olive', scopes: [...MANAGE, 'audit:read'] },
    { key: 'adam-key', person: 'adam', scopes: [...MANAGE, 'audit:read'] },
    { key: 'alice-key', person: 'alice', scopes: [...MANAGE, 'audit:read'] },
    { key: 'bob-key', person: 'bob', scopes: MANAGE },
  ]
  bundle.workspace_tokens = [{ key: 'bot-token', integration: 'bot', scopes: MANAGE }]
  ws = await importOk(t.db.db, bundle)
})
after(() => t.close())

const as = (key: string) => client(t.app, tokenOf(ws, key))

test('a person creates an API key for themselves; the secret is shown once and works at once', async () => {
  const created = await as('alice-key').post(
    '/v1/api-keys',
    { name: 'CI', scopes: ['task:read', 'project:read'] },
    { 'user-agent': 'test-agent/1.0' },
  )
  assert.equal(created.status, 201, created.body)
  assert.match(created.json.token, /^wg_key_/)
  assert.equal(created.json.last4, created.json.token.slice(-4))
  assert.equal(created.json.owner_id, ws.ids.alice)
  assert.equal(created.json.status, 'active')
  assert.deepEqual(created.json.scopes, ['task:read', 'project:read'])
  const fresh = client(t.app, created.json.token)
  assert.equal((await fresh.get('/v1/projects')).status, 200)
  assert.equal((await fresh.get('/v1/people')).status, 403)
  const listed = await allPages(as('alice-key'), '/v1/tokens', 20)
  const record = listed.find((token) => token.id === created.json.id)
  assert.ok(record && !('token' in record), 'the secret never appears again')
  assert.ok(record.last_used_at, 'last use is recorded')
})

test('a key cannot get scopes its creator token lacks, and integrations have no API keys', async () => {
  const unknown = await as('bob-key').post('/v1/api-keys', {
    name: 'x',
    scopes: ['project:read', 'audit:read', 'nonsense'],
  })
  assert.equal(unknown.status, 422)
  assert.deepEqual(
    unknown.json.errors.map((e: { path: string }) => e.path),
    ['/scopes/2'],
  )
  const escalate = await as('bob-key').post('/v1/api-keys', {
    name: 'x',
    scopes: ['project:read', 'audit:read'],
  })
  assert.equal(escalate.status, 403)
  assert.equal(escalate.json.code, 'insufficient_scope')
  assert.deepEqual(escalate.json.required_scopes, ['audit:read'])
  const bot = await as('bot-token').post('/v1/api-keys', { name: 'x', scopes: ['project:read'] })
  assert.equal(bot.status, 403)
  assert.equal(bot.json.code, 'forbidden')
})

test('bodies: malformed JSON, wrong types, unknown fields, other media types and huge bodies are 4xx and create nothing', async () => {
  const api = as('bob-key')
  const count = async () => (await allPages(api, '/v1/tokens', 100)).length
  const before = await count()
  const cases: [string, string, Record<string, string>, number, string][] = [
    [
      'truncated JSON',
      '{"name": "x", ',
      { 'content-type': 'application/json' },
      400,
      'invalid_request',
    ],
    ['not JSON at all', 'hello', { 'content-type': 'application/json' }, 400, 'invalid_request'],
    [
      'prototype pollution',
      '{"__proto__": {"admin": true}, "name": "x", "scopes": ["task:read"]}',
      { 'content-type': 'application/json' },
      400,
      'invalid_request',
    ],
    [
      'wrong type',
      '{"name": 5, "scopes": "task:read"}',
      { 'content-type': 'application/json' },
      422,
      'validation_failed',
    ],
    [
      'unknown field',
      '{"name": "x", "scopes": ["task:read"], "admin": true}',
      { 'content-type': 'application/json' },
      422,
      'validation_failed',
    ],
    ['missing fields', '{}', { 'content-type': 'application/json' }, 422, 'validation_failed'],
    ['empty body', '', { 'content-type': 'application/json' }, 400, 'invalid_request'],
    ['array body', '[]', { 'content-type': 'application/json' }, 422, 'validation_failed'],
    ['text/plain', 'name=x', { 'content-type': 'text/plain' }, 415, 'unsupported_media_type'],
    [
      'form data',
      'name=x',
      { 'content-type': 'application/x-www-form-urlencoded' },
      415,
      'unsupported_media_type',
    ],
    [
      'huge body',
      JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024), scopes: ['task:read'] }),
      { 'content-type': 'application/json' },
      413,
      'payload_too_large',
    ],
    [
      'overlong name',
      JSON.stringify({ name: 'x'.repeat(201), scopes: ['task:read'] }),
      { 'content-type': 'application/json' },
      422,
      'validation_failed',
    ],
  ]
  for (const [name, payload, headers, status, code] of cases) {
    const reply = await api.send({ method: 'POST', url: '/v1/api-keys', payload, headers })
    assert.equal(reply.status, status, `${name}: ${reply.body}`)
    assert.equal(reply.json?.code, code, name)
    assert.match(String(reply.headers['content-type']), /application\/problem\+json/, name)
  }
  assert.equal(await count(), before)
})

test('rotation keeps the old key working for the chosen overlap, then it expires', async () => {
  const api = as('alice-key')
  const original = (await api.post('/v1/api-keys', { name: 'deploy', scopes: ['project:read'] }))
    .json
  const rotated = await api.post(`/v1/api-keys/${original.id}/rotate`, { overlap_seconds: 3600 })
  assert.equal(rotated.status, 200, rotated.body)
  assert.notEqual(rotated.json.token, original.token)
  assert.equal(rotated.json.name, 'deploy')
  assert.equal(Date.parse(rotated.json.previous_expires_at) - t.clock.now().getTime(), 3_600_000)
  assert.equal((await client(t.app, original.token).get('/v1/projects')).status, 200)
  assert.equal((await client(t.app, rotated.json.token).get('/v1/projects')).status, 200)
  t.clock.advance(3_600_001)
  const expired = await client(t.app, original.token).get('/v1/projects')
  assert.equal(expired.status, 401)
  assert.equal(expired.json.code, 'token_expired')
  assert.match(String(expired.headers['www-authenticate']), /error="invalid_token"/)
  assert.equal((await client(t.app, rotated.json.token).get('/v1/projects')).status, 200)
  // No body at all means the default overlap of one day.
  const again = await api.post(`/v1/api-keys/${rotated.json.id}/rotate`)
  assert.equal(again.status, 200, again.body)
  assert.equal(Date.parse(again.json.previous_expires_at) - t.clock.now().getTime(), 86_400_000)
  // An expired key cannot be rotated again.
  assert.equal((await api.post(`/v1/api-keys/${original.id}/rotate`, {})).status, 409)
})

test('rotation with no overlap ends the old key at once; the overlap is capped at 7 days', async () => {
  const api = as('alice-key')
  const key = (await api.post('/v1/api-keys', { name: 'now', scopes: ['project:read'] })).json
  const rotated = await api.post(`/v1/api-keys/${key.id}/rotate`, { overlap_seconds: 0 })
  assert.equal(rotated.status, 200)
  assert.equal((await client(t.app, key.token).get('/v1/projects')).status, 401)
  assert.equal(
    (await api.post(`/v1/api-keys/${rotated.json.id}/rotate`, { overlap_seconds: 604_801 })).status,
    422,
  )
})

test('only the owner rotates a key; owners and admins list and revoke every token', async () => {
  const bobKey = (
    await as('bob-key').post('/v1/api-keys', { name: 'bob', scopes: ['project:read'] })
  ).json
  assert.equal((await as('adam-key').post(`/v1/api-keys/${bobKey.id}/rotate`, {})).status, 404)
  assert.equal((await as('alice-key').post(`/v1/tokens/${bobKey.id}/revoke`)).status, 404)
  const bobSees = await allPages(as('bob-key'), '/v1/tokens', 20)
  assert.ok(bobSees.every((token) => token.owner_id === ws.ids.bob))
  const adminSees = await allPages(as('adam-key'), '/v1/tokens', 20)
  assert.ok(
    adminSees.some((token) => token.owner_id === ws.ids.bot) &&
      adminSees.some((token) => token.owner_id === ws.ids.bob),
  )
  const revoked = await as('adam-key').post(`/v1/tokens/${bobKey.id}/revoke`)
  assert.equal(revoked.status, 200)
  assert.equal(revoked.json.status, 'revoked')
  const refused = await client(t.app, bobKey.token).get('/v1/projects')
  assert.equal(refused.status, 401)
  assert.equal(refused.json.code, 'invalid_token')
  assert.equal(
    (await as('adam-key').post(`/v1/tokens/${bobKey.id}/revoke`)).status,
    200,
    'revoking twice is fine',
  )
  const onlyRevoked = await allPages(as('adam-key'), '/v1/tokens?status=revoked', 20)
  assert.ok(onlyRevoked.length >= 1 && onlyRevoked.every((token) => token.status === 'revoked'))
})

test('every token action is audited with a diff, the token, the request and no secret', async () => {
  const created = await as('alice-key').post(
    '/v1/api-keys',
    { name: 'audited', scopes: ['task:read'] },
    { 'user-agent': 'audit-test/2' },
  )
  await as('alice-key').post(`/v1/api-keys/${created.json.id}/rotate`, { overlap_seconds: 60 })
  await as('olive-key').post(`/v1/tokens/${created.json.id}/revoke`)
  const entries = await allPages(as('olive-key'), `/v1/audit?resource_id=${created.json.id}`, 20)
  assert.deepEqual(entries.map((e) => e.action).sort(), [
    'api_key.created',
    'api_key.rotated',
    'token.revoked',
  ])
  const creation = entries.find((e) => e.action === 'api_key.created')
  assert.equal(creation.actor_id, ws.ids.alice)
  assert.equal(creation.token_id, ws.api_keys['alice-key']?.id)
  assert.equal(creation.token_kind, 'api_key')
  assert.equal(creation.user_agent, 'audit-test/2')
  assert.match(creation.request_id, /^req_/)
  assert.ok(creation.ip)
  assert.deepEqual(creation.diff.name, { from: null, to: 'audited' })
  assert.deepEqual(creation.diff.scopes, { from: null, to: ['task:read'] })
  const revocation = entries.find((e) => e.action === 'token.revoked')
  assert.equal(revocation.actor_id, ws.ids.olive)
  assert.equal(revocation.diff.revoked_at.from, null)
  const everything = JSON.stringify(await allPages(as('olive-key'), '/v1/audit', 100))
  assert.ok(!everything.includes(created.json.token) && !everything.includes('secret_hash'))
  const byToken = await allPages(
    as('olive-key'),
    `/v1/audit?token_id=${ws.api_keys['olive-key']?.id}`,
    20,
  )
  assert.ok(
    byToken.length >= 1 && byToken.every((e) => e.token_id === ws.api_keys['olive-key']?.id),
  )
  const byActor = await allPages(
    as('olive-key'),
    `/v1/audit?actor_id=${ws.ids.alice}&action=api_key.rotated`,
    20,
  )
  assert.ok(
    byActor.length >= 1 &&
      byActor.every((e) => e.actor_id === ws.ids.alice && e.action === 'api_key.rotated'),
  )
  const future = await allPages(
    as('olive-key'),
    `/v1/audit?since=${new Date(t.clock.now().getTime() + 60_000).toISOString()}`,
    20,
  )
  assert.equal(future.length, 0)
})

test('the audit log is for owners and admins only', async () => {
  const member = await as('alice-key').get('/v1/audit')
  assert.equal(member.status, 403)
  assert.equal(member.json.code, 'forbidden')
  assert.equal((await as('bob-key').get('/v1/audit')).status, 403)
  assert.equal((await as('adam-key').get('/v1/audit')).status, 200)
})
