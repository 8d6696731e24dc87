import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { importOk, tokenOf } from '../../harness/bundles.ts'
import { peopleBundle, peopleTraces } from '../../harness/people-bundle.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'

let t: TestApp
let ws: ImportResult
const id = (key: string) => ws.ids[key] as string
const as = (key: string) => client(t.app, tokenOf(ws, key))
const traces = () => peopleTraces(t.db.db, ws.workspace_id)
const roleOf = async (key: string) =>
  (
    await t.db.db
      .selectFrom('people')
      .select('role')
      .where('id', '=', id(key))
      .executeTakeFirstOrThrow()
  ).role

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, peopleBundle())
})
after(() => t.close())

test('a guest made member sees the workspace projects on the very next request', async () => {
  const names = async () =>
    (await as('gus-key').get('/v1/projects')).json.data.map((p: { name: string }) => p.name)
  // Warm the principal cache with the guest's view.
  assert.deepEqual(await names(), ['Open project'])
  assert.equal((await as('gus-key').get('/v1/people')).json.data.length < 5, true)
  const reply = await as('adam-key').patch(`/v1/people/${id('gus')}`, { role: 'member' })
  assert.equal(reply.status, 200, reply.body)
  assert.equal(reply.json.role, 'member')
  assert.equal(reply.json.deactivated, false)
  // Every member sees the workspace's public projects and everyone; not the private one.
  assert.deepEqual((await names()).sort(), ['Lobby project', 'Open project'])
  const people = await as('gus-key').get('/v1/people?limit=100')
  assert.equal(people.json.data.length, 5)
  const [event] = await t.db.db
    .selectFrom('events')
    .selectAll()
    .where('type', '=', 'person.updated')
    .where('subject_id', '=', id('gus'))
    .execute()
  assert.equal(event?.data.object.role, 'member')
  assert.deepEqual(
    (event?.data as { previous_attributes?: unknown } | undefined)?.previous_attributes,
    { role: 'guest' },
  )
  assert.equal(event?.data.object.email, null, 'events carry no email')
  const audit = await t.db.db
    .selectFrom('audit_log')
    .selectAll()
    .where('resource_id', '=', id('gus'))
    .where('action', '=', 'person.updated')
    .execute()
  assert.deepEqual(audit[0]?.diff, { role: { from: 'guest', to: 'member' } })
  // Back to guest: the member's view closes at once too.
  assert.equal(
    (await as('adam-key').patch(`/v1/people/${id('gus')}`, { role: 'guest' })).status,
    200,
  )
  assert.deepEqual(await names(), ['Open project'])
  assert.equal((await as('gus-key').get(`/v1/resources/${id('lobby')}`)).status, 404)
})

test('the same role changes nothing and records nothing', async () => {
  const before = await traces()
  const reply = await as('adam-key').patch(`/v1/people/${id('bob')}`, { role: 'member' })
  assert.equal(reply.status, 200)
  assert.deepEqual(await traces(), before)
})

test('members, guests and integrations cannot change roles; a token without people:write neither', async () => {
  const before = await traces()
  for (const key of ['alice-key', 'gus-key', 'bot-token']) {
    const reply = await as(key).patch(`/v1/people/${id('bob')}`, { role: 'guest' })
    assert.equal(reply.status, 403, `${key}: ${reply.body}`)
  }
  const scope = await as('adam-read').patch(`/v1/people/${id('bob')}`, { role: 'guest' })
  assert.equal(scope.json.code, 'insufficient_scope')
  assert.equal(await roleOf('bob'), 'member')
  assert.deepEqual(await traces(), before)
})

test('only an owner grants or takes away owner and admin', async () => {
  const before = await traces()
  for (const [who, role] of [
    ['bob', 'admin'],
    ['bob', 'owner'],
    ['adam', 'member'],
    ['olive', 'member'],
  ] as const) {
    const reply = await as('adam-key').patch(`/v1/people/${id(who)}`, { role })
    assert.equal(reply.status, 403, `${who} → ${role}: ${reply.body}`)
    assert.equal(reply.json.code, 'forbidden')
  }
  assert.deepEqual(await traces(), before)
  assert.equal(
    (await as('olive-key').patch(`/v1/people/${id('bob')}`, { role: 'admin' })).status,
    200,
  )
  assert.equal(await roleOf('bob'), 'admin')
  assert.equal(
    (await as('olive-key').patch(`/v1/people/${id('bob')}`, { role: 'member' })).status,
    200,
  )
})

test('the last owner cannot be demoted; with a second owner, either may step down', async () => {
  const before = await traces()
  const last = await as('olive-key').patch(`/v1/people/${id('olive')}`, { role: 'admin' })
  assert.equal(last.status, 409, last.body)
  assert.equal(last.json.code, 'conflict')
  assert.deepEqual(await traces(), before)
  assert.equal(
    (await as('olive-key').patch(`/v1/people/${id('alice')}`, { role: 'owner' })).status,
    200,
  )
  assert.equal(
    (await as('olive-key').patch(`/v1/people/${id('olive')}`, { role: 'member' })).status,
    200,
  )
  // Now Alice is the last owner; Olive (a member now) can do nothing about it.
  assert.equal(
    (await as('olive-key').patch(`/v1/people/${id('alice')}`, { role: 'member' })).status,
    403,
  )
  assert.equal(
    (await as('alice-key').patch(`/v1/people/${id('alice')}`, { role: 'admin' })).status,
    409,
  )
  assert.equal(
    (await as('alice-key').patch(`/v1/people/${id('olive')}`, { role: 'owner' })).status,
    200,
  )
  assert.equal(
    (await as('olive-key').patch(`/v1/people/${id('alice')}`, { role: 'member' })).status,
    200,
  )
  assert.equal(await roleOf('alice'), 'member')
  assert.equal(await roleOf('olive'), 'owner')
})

test('two owners demoting each other at once leave one owner', async () => {
  assert.equal(
    (await as('olive-key').patch(`/v1/people/${id('alice')}`, { role: 'owner' })).status,
    200,
  )
  const [a, b] = await Promise.all([
    as('olive-key').patch(`/v1/people/${id('alice')}`, { role: 'member' }),
    as('alice-key').patch(`/v1/people/${id('olive')}`, { role: 'member' }),
  ])
  const statuses = [a?.status, b?.status].sort()
  assert.ok(
    JSON.stringify(statuses) === '[200,403]' || JSON.stringify(statuses) === '[200,409]',
    JSON.stringify(statuses),
  )
  const owners = await t.db.db
    .selectFrom('people')
    .select('id')
    .where('workspace_id', '=', ws.workspace_id)
    .where('role', '=', 'owner')
    .execute()
  assert.equal(owners.length, 1)
  // Olive is the owner again, whichever won.
  if (owners[0]?.id !== id('olive')) {
    assert.equal(
      (await as('alice-key').patch(`/v1/people/${id('olive')}`, { role: 'owner' })).status,
      200,
    )
    assert.equal(
      (await as('olive-key').patch(`/v1/people/${id('alice')}`, { role: 'member' })).status,
      200,
    )
  }
})

test('an unknown or malformed id is the one 404; bad roles are 422', async () => {
  const before = await traces()
  for (const path of ['usr_00000000000000000000000000', 'nonsense', id('bot')]) {
    const reply = await as('olive-key').patch(`/v1/people/${path}`, { role: 'member' })
    assert.equal(reply.status, 404, path)
  }
  for (const body of [{ role: 'king' }, {}, { role: 'member', name: 'x' }]) {
    const reply = await as('olive-key').patch(`/v1/people/${id('bob')}`, body)
    assert.equal(reply.status, 422, JSON.stringify(body))
  }
  assert.deepEqual(await traces(), before)
})

test('a dry run answers the change and its event, and changes nothing', async () => {
  const before = await traces()
  const dry = await as('olive-key').patch(`/v1/people/${id('bob')}?dry_run=true`, { role: 'guest' })
  assert.equal(dry.status, 200, dry.body)
  assert.equal(dry.json.result.role, 'guest')
  assert.deepEqual(
    dry.json.events.map((event: { type: string }) => event.type),
    ['person.updated'],
  )
  assert.equal(await roleOf('bob'), 'member')
  assert.deepEqual(await traces(), before)
})

test('a key fenced to projects cannot change roles, deactivate or invite, even an owner’s', async () => {
  const fenced = await as('olive-key').post('/v1/api-keys', {
    name: 'fenced admin',
    scopes: ['people:read', 'people:write'],
    project_ids: [id('open')],
  })
  assert.equal(fenced.status, 201, fenced.body)
  const api = client(t.app, fenced.json.token)
  const before = await traces()
  for (const reply of [
    await api.patch(`/v1/people/${id('bob')}`, { role: 'admin' }),
    await api.post(`/v1/people/${id('bob')}/deactivate`),
    await api.post('/v1/invitations', { email: 'fenced@example.test', role: 'member' }),
  ]) {
    assert.equal(reply.status, 403, reply.body)
    assert.equal(reply.json.code, 'forbidden')
  }
  assert.equal(await roleOf('bob'), 'member')
  assert.deepEqual(await traces(), before)
})
