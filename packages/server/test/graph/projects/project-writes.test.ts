import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, withScopes, writableBundle } from '../../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'

let t: TestApp
let ws: ImportResult
const id = (key: string) => ws.ids[key] as string
const as = (key: string) => client(t.app, tokenOf(ws, key))

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, withScopes(writableBundle(), ['project:write']))
})
after(() => t.close())

async function rowsAbout(projectId: string) {
  const db = t.db.db
  return {
    activity: await db
      .selectFrom('activity')
      .select(['verb', 'changes'])
      .where('subject_id', '=', projectId)
      .orderBy('written')
      .execute(),
    events: await db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('subject_id', '=', projectId)
      .orderBy('created_at')
      .execute(),
    audit: await db
      .selectFrom('audit_log')
      .select(['action', 'diff'])
      .where('resource_id', '=', projectId)
      .orderBy('created_at')
      .execute(),
  }
}

test('a member creates a private project: owns it, belongs to it, and only it can open it', async () => {
  const reply = await as('bob-key').post('/v1/projects', {
    name: '  Warehouse move ',
    description: 'Moving the stock',
    visibility: 'private',
  })
  assert.equal(reply.status, 201, reply.body)
  const project = reply.json
  assert.match(project.id, /^prj_/)
  assert.equal(project.name, 'Warehouse move')
  assert.equal(project.status, 'active')
  assert.equal(project.owner_id, id('bob'))
  assert.deepEqual(project.member_ids, [id('bob')])
  assert.equal((await as('bob-key').get(`/v1/resources/${project.id}`)).status, 200)
  for (const other of ['alice-key', 'olive-key', 'gus-key', 'bot-token'])
    assert.equal((await as(other).get(`/v1/resources/${project.id}`)).status, 404, other)

  const { activity, events, audit } = await rowsAbout(project.id)
  assert.deepEqual(
    activity.map((a) => a.verb),
    ['project.created'],
  )
  assert.deepEqual(
    events.map((e) => e.type),
    ['project.created'],
  )
  assert.equal(events[0]?.data.object.name, 'Warehouse move')
  assert.equal(audit[0]?.action, 'project.created')
  assert.deepEqual((audit[0]?.diff as Record<string, unknown> | undefined)?.members, {
    from: null,
    to: [id('bob')],
  })
})

test('guests, integrations, fenced keys and tokens without project:write cannot create projects', async () => {
  const refusals: [string, number, string][] = [
    ['gus-key', 403, 'forbidden'],
    ['bot-token', 403, 'forbidden'],
    ['read-only-key', 403, 'insufficient_scope'],
  ]
  for (const [key, status, code] of refusals) {
    const reply = await as(key).post('/v1/projects', { name: 'Nope' })
    assert.equal(reply.status, status, key)
    assert.equal(reply.json.code, code, key)
  }
  const fenced = await as('olive-key').post('/v1/api-keys', {
    name: 'fenced',
    scopes: ['project:read', 'project:write'],
    project_ids: [id('open')],
  })
  assert.equal(fenced.status, 201, fenced.body)
  const byFenced = await client(t.app, fenced.json.token).post('/v1/projects', { name: 'Nope' })
  assert.equal(byFenced.status, 403)
  const names = await t.db.db.selectFrom('projects').select('name').execute()
  assert.ok(!names.some((row) => row.name === 'Nope'))
})

test('bad bodies are 422s that change nothing', async () => {
  const before = await t.db.db.selectFrom('projects').select('id').execute()
  for (const body of [
    { name: '   ' },
    { name: '' },
    {},
    { name: 'x', status: 'done' },
    { name: 'x', visibility: 'secret' },
    { name: 'x', owner_id: id('alice') },
  ]) {
    const reply = await as('alice-key').post('/v1/projects', body)
    assert.equal(reply.status, 422, JSON.stringify(body))
    assert.match(reply.headers['content-type'] as string, /problem\+json/)
  }
  const after = await t.db.db.selectFrom('projects').select('id').execute()
  assert.equal(after.length, before.length)
})

test('its members change its details; only its owner and admins change who may open it', async () => {
  const created = (await as('alice-key').post('/v1/projects', { name: 'Roadmap' })).json
  // Bob joins; as a member he may rename it, but not make it private.
  const joined = await as('alice-key').post(`/v1/projects/${created.id}/members`, {
    person_id: 'Bob Member',
  })
  assert.equal(joined.status, 200, joined.body)
  assert.ok(joined.json.member_ids.includes(id('bob')))
  const renamed = await as('bob-key').patch(`/v1/projects/${created.id}`, {
    name: 'Roadmap 2027',
    status: 'paused',
  })
  assert.equal(renamed.status, 200, renamed.body)
  assert.equal(renamed.json.name, 'Roadmap 2027')
  assert.equal(renamed.json.status, 'paused')
  const privately = await as('bob-key').patch(`/v1/projects/${created.id}`, {
    visibility: 'private',
  })
  assert.equal(privately.status, 403)
  // A member who does not belong to it may open it (it is a workspace project) but not change it.
  const outsider = await as('bob-key').patch(`/v1/projects/${id('open')}`, { name: 'Mine' })
  assert.equal(outsider.status, 403, outsider.body)
  // An admin who can open it may.
  const byAdmin = await as('adam-key').patch(`/v1/projects/${created.id}`, { description: 'Q1' })
  assert.equal(byAdmin.status, 200, byAdmin.body)

  const { activity, events } = await rowsAbout(created.id)
  assert.deepEqual(
    activity.map((a) => a.verb),
    ['project.created', 'project.member_added', 'project.updated', 'project.updated'],
  )
  assert.deepEqual(activity[2]?.changes, {
    name: { from: 'Roadmap', to: 'Roadmap 2027' },
    status: { from: 'active', to: 'paused' },
  })
  assert.deepEqual(
    (events[2]?.data as { previous_attributes?: unknown } | undefined)?.previous_attributes,
    {
      name: 'Roadmap',
      status: 'active',
    },
  )
  assert.deepEqual(events[1]?.data.object, {
    type: 'project_membership',
    project_id: created.id,
    member_id: id('bob'),
    member_type: 'person',
  })
})

test('a private project that an admin does not belong to is the 404 of an unknown id to every write', async () => {
  const unknown = 'prj_0000000000000000000000'
  for (const path of [id('secret'), unknown]) {
    const patch = await as('adam-key').patch(`/v1/projects/${path}`, { name: 'Mine now' })
    const join = await as('adam-key').post(`/v1/projects/${path}/members`, { person_id: 'me' })
    assert.equal(patch.status, 404)
    assert.equal(join.status, 404)
  }
  const secret = await t.db.db
    .selectFrom('projects')
    .select('name')
    .where('id', '=', id('secret'))
    .executeTakeFirstOrThrow()
  assert.equal(secret.name, 'Secret project')
})

test('sharing a private project opens it on the very next request, and removing closes it', async () => {
  const created = (
    await as('alice-key').post('/v1/projects', { name: 'Hiring', visibility: 'private' })
  ).json
  assert.equal((await as('bob-key').get(`/v1/resources/${created.id}`)).status, 404)
  const shared = await as('alice-key').post(`/v1/projects/${created.id}/members`, {
    person_id: id('bob'),
  })
  assert.equal(shared.status, 200, shared.body)
  assert.equal((await as('bob-key').get(`/v1/resources/${created.id}`)).status, 200)
  // The same member again changes nothing and records nothing.
  const again = await as('alice-key').post(`/v1/projects/${created.id}/members`, {
    person_id: id('bob'),
  })
  assert.equal(again.status, 200)
  const unshared = await as('alice-key').delete(`/v1/projects/${created.id}/members/${id('bob')}`)
  assert.equal(unshared.status, 200, unshared.body)
  assert.equal((await as('bob-key').get(`/v1/resources/${created.id}`)).status, 404)
  // Not a direct member any more: the 404 of an unknown member.
  const twice = await as('alice-key').delete(`/v1/projects/${created.id}/members/${id('bob')}`)
  assert.equal(twice.status, 404)
  const { activity } = await rowsAbout(created.id)
  assert.deepEqual(
    activity.map((a) => a.verb),
    ['project.created', 'project.member_added', 'project.member_removed'],
  )
})

test('a team shares a project with its members; the activity names it only to who may see it', async () => {
  const created = (
    await as('bob-key').post('/v1/projects', { name: 'Platform', visibility: 'private' })
  ).json
  const byName = await as('bob-key').post(`/v1/projects/${created.id}/members`, {
    team_id: 'Engineering',
  })
  assert.equal(byName.status, 200, byName.body)
  assert.deepEqual(byName.json.team_ids, [id('eng')])
  assert.equal((await as('alice-key').get(`/v1/resources/${created.id}`)).status, 200)
  const feed = await as('alice-key').get(
    `/v1/activity?resource_id=${created.id}&verbs=project.member_added`,
  )
  assert.equal(feed.status, 200, feed.body)
  assert.deepEqual(feed.json.data[0]?.changes.member, {
    from: null,
    to: id('eng'),
    from_name: null,
    to_name: 'Engineering',
  })
})

test('the owner and the caller must still open the project after a change', async () => {
  const created = (await as('alice-key').post('/v1/projects', { name: 'Lone' })).json
  // Gus is a guest: he cannot open a workspace project he does not belong to.
  const toGuest = await as('alice-key').patch(`/v1/projects/${created.id}`, {
    owner_id: id('gus'),
  })
  assert.equal(toGuest.status, 422, toGuest.body)
  assert.equal(toGuest.json.errors[0].path, '/owner_id')
  // Alice cannot remove herself from her own private project.
  await as('alice-key').patch(`/v1/projects/${created.id}`, { visibility: 'private' })
  const leave = await as('alice-key').delete(`/v1/projects/${created.id}/members/${id('alice')}`)
  assert.equal(leave.status, 422, leave.body)
  const still = await as('alice-key').get(`/v1/resources/${created.id}`)
  assert.equal(still.status, 200)
  assert.deepEqual(still.json.member_ids, [id('alice')])
  // An admin hands the project to Bob after he joins; Bob then may change who opens it.
  await as('alice-key').post(`/v1/projects/${created.id}/members`, { person_id: id('bob') })
  const handed = await as('alice-key').patch(`/v1/projects/${created.id}`, { owner_id: 'Bob' })
  assert.equal(handed.status, 200, handed.body)
  assert.equal(handed.json.owner_id, id('bob'))
})

test('a retried creation with the same Idempotency-Key makes one project; a dry run makes none', async () => {
  const key = { 'idempotency-key': 'project-once' }
  const first = await as('alice-key').post('/v1/projects', { name: 'Once' }, key)
  const second = await as('alice-key').post('/v1/projects', { name: 'Once' }, key)
  assert.equal(first.status, 201)
  assert.equal(second.status, 201)
  assert.equal(second.json.id, first.json.id)
  assert.equal(second.headers['idempotent-replayed'], 'true')
  const dry = await as('alice-key').post('/v1/projects?dry_run=true', { name: 'Dry' })
  assert.equal(dry.status, 200, dry.body)
  assert.equal(dry.json.result.name, 'Dry')
  const made = await t.db.db
    .selectFrom('projects')
    .select('id')
    .where('name', 'in', ['Once', 'Dry'])
    .execute()
  assert.equal(made.length, 1)
})
