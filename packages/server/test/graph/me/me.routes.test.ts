import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { ALL_READ_SCOPES, importOk, smallBundle, tokenOf } from '../../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'

// `GET /v1/me` (docs/api.md, "Who the token acts as"): any token learns whom it acts as and what
// it may do, and never a project it could not open.

let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp()
  const bundle = smallBundle()
  bundle.api_keys = [
    ...(bundle.api_keys ?? []),
    { key: 'bob-manager', person: 'bob', scopes: [...ALL_READ_SCOPES, 'token:manage'] },
    { key: 'alice-writer', person: 'alice', scopes: [...ALL_READ_SCOPES, 'task:write'] },
  ]
  bundle.workspace_tokens = [
    ...(bundle.workspace_tokens ?? []),
    { key: 'bot-writer', integration: 'bot', scopes: [...ALL_READ_SCOPES, 'task:write'] },
  ]
  ws = await importOk(t.db.db, bundle)
})
after(() => t.close())

const id = (key: string) => ws.ids[key] as string
const as = (key: string) => client(t.app, tokenOf(ws, key))

test('a person’s key says who they are, their role and page, and the key’s own scopes', async () => {
  const me = await as('alice-key').get('/v1/me')
  assert.equal(me.status, 200, me.body)
  assert.equal(me.json.type, 'me')
  assert.deepEqual(me.json.actor, {
    id: id('alice'),
    type: 'person',
    name: 'Alice Member',
    role: 'member',
    url: me.json.actor.url,
  })
  assert.match(me.json.actor.url, new RegExp(`${id('alice')}$`))
  assert.equal(me.json.workspace.id, ws.workspace_id)
  assert.equal(me.json.credential.id, ws.api_keys['alice-key']?.id)
  assert.equal(me.json.credential.type, 'api_key')
  assert.equal(me.json.credential.client_id, null)
  assert.equal(me.json.credential.project_ids, null)
  assert.equal(me.json.credential.expires_at, null)
  assert.deepEqual(me.json.credential.scopes, [...me.json.credential.scopes].sort())
  for (const scope of ALL_READ_SCOPES) assert.ok(me.json.credential.scopes.includes(scope), scope)
})

test('a key with one scope may ask too, and a workspace token acts as its integration', async () => {
  const narrow = await as('narrow-key').get('/v1/me')
  assert.equal(narrow.status, 200, narrow.body)
  assert.deepEqual(narrow.json.credential.scopes, ['task:read'])
  const bot = await as('bot-token').get('/v1/me')
  assert.equal(bot.status, 200, bot.body)
  assert.deepEqual(bot.json.actor, {
    id: id('bot'),
    type: 'integration',
    name: 'Bot',
    role: null,
    url: null,
  })
  assert.equal(bot.json.credential.type, 'workspace_token')
})

test('without a token, or with an unknown one, the answer is 401 as everywhere', async () => {
  assert.equal((await client(t.app).get('/v1/me')).status, 401)
  assert.equal((await client(t.app, 'wg_key_nonsense').get('/v1/me')).status, 401)
})

test('a fenced key names only the projects of its fence that its person can still open', async () => {
  const created = await as('bob-manager').post('/v1/api-keys', {
    name: 'fenced',
    scopes: ['project:read'],
    project_ids: [id('open')],
  })
  assert.equal(created.status, 201, created.body)
  const fenced = client(t.app, created.json.token)
  assert.deepEqual((await fenced.get('/v1/me')).json.credential.project_ids, [id('open')])
  // As after leaving a project: the fence still holds an id its person can no longer open.
  await t.db.db
    .updateTable('tokens')
    .set({ project_ids: [id('open'), id('secret')] })
    .where('id', '=', created.json.id)
    .execute()
  const me = await fenced.get('/v1/me')
  assert.deepEqual(me.json.credential.project_ids, [id('open')])
  assert.doesNotMatch(me.body, new RegExp(id('secret')))
})

test('`me` stands for the caller wherever a task takes a person: list, create, update', async () => {
  const alice = as('alice-writer')
  const mine = await alice.get('/v1/tasks?assignee_id=me')
  const byId = await alice.get(`/v1/tasks?assignee_id=${id('alice')}`)
  assert.equal(mine.status, 200, mine.body)
  assert.deepEqual(mine.json.data, byId.json.data)
  const created = await alice.post('/v1/tasks', {
    title: 'Mine by a word',
    project_id: id('open'),
    assignee_id: 'me',
  })
  assert.equal(created.status, 201, created.body)
  assert.equal(created.json.assignee_id, id('alice'))
  const cleared = await alice.patch(`/v1/tasks/${created.json.id}`, { assignee_id: null })
  assert.equal(cleared.json.assignee_id, null)
  const again = await alice.patch(`/v1/tasks/${created.json.id}`, { assignee_id: 'me' })
  assert.equal(again.status, 200, again.body)
  assert.equal(again.json.assignee_id, id('alice'))
})

test('a token acting as an integration is told `me` is no person, and nothing is written', async () => {
  const bot = as('bot-writer')
  const before = await bot.get('/v1/tasks')
  for (const reply of [
    await bot.get('/v1/tasks?assignee_id=me'),
    await bot.post('/v1/tasks', { title: 'x', project_id: id('secret'), assignee_id: 'me' }),
  ]) {
    assert.equal(reply.status, 422, reply.body)
    assert.equal(reply.json.errors[0].path, '/assignee_id')
    assert.match(reply.json.detail, /integration/)
  }
  assert.deepEqual((await bot.get('/v1/tasks')).json.data, before.json.data)
})
