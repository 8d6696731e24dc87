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
  // Every key but the narrow ones may also shape teams, projects and keys: only the rules decide.
  ws = await importOk(
    t.db.db,
    withScopes(writableBundle(), ['people:write', 'project:write', 'token:manage']),
  )
})
after(() => t.close())

const eventsOf = (subjectId: string) =>
  t.db.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('subject_id', '=', subjectId)
    .orderBy('created_at')
    .execute()

test('an admin makes a team with members; they open what it is given at once', async () => {
  const made = await as('adam-key').post('/v1/teams', {
    name: 'Design',
    member_ids: ['Bob Member', id('gus')],
  })
  assert.equal(made.status, 201, made.body)
  assert.match(made.json.id, /^team_/)
  assert.deepEqual(made.json.member_ids, [id('bob'), id('gus')].sort())
  // The secret project is Alice's; sharing it with the team opens it to Bob and the guest Gus.
  assert.equal((await as('bob-key').get(`/v1/resources/${id('secret')}`)).status, 404)
  const shared = await as('alice-key').post(`/v1/projects/${id('secret')}/members`, {
    team_id: 'Design',
  })
  assert.equal(shared.status, 200, shared.body)
  assert.equal((await as('gus-key').get(`/v1/resources/${id('secret')}`)).status, 200)
  assert.equal((await as('bob-key').get(`/v1/resources/${id('secret')}`)).status, 200)
  const removed = await as('olive-key').delete(`/v1/teams/${made.json.id}/members/${id('bob')}`)
  assert.equal(removed.status, 200, removed.body)
  assert.deepEqual(removed.json.member_ids, [id('gus')])
  assert.equal((await as('bob-key').get(`/v1/resources/${id('secret')}`)).status, 404)
  assert.deepEqual(
    (await eventsOf(made.json.id)).map((e) => e.type),
    ['team.created', 'team.member_removed'],
  )
  // The stream and the feed show the team's changes to whoever may see the team: every member,
  // a guest in it; not an integration, nor a key fenced to projects.
  const verbsSeenBy = async (key: string) =>
    (await as(key).get(`/v1/activity?resource_id=${made.json.id}`)).json.data?.map(
      (entry: { verb: string }) => entry.verb,
    )
  // Both were written at the test clock's one instant: compared as sets.
  assert.deepEqual((await verbsSeenBy('alice-key')).sort(), ['team.created', 'team.member_removed'])
  assert.deepEqual((await verbsSeenBy('gus-key')).sort(), ['team.created', 'team.member_removed'])
  // An entry opens on its own as it lists; to the integration the team is hidden: the filter
  // and the entry are the one 404, and its feed holds none.
  const entry = (
    await as('gus-key').get(`/v1/activity?resource_id=${made.json.id}&verbs=team.member_removed`)
  ).json.data[0]
  assert.equal((await as('gus-key').get(`/v1/resources/${entry.id}`)).status, 200)
  assert.equal((await as('bot-token').get(`/v1/resources/${entry.id}`)).status, 404)
  assert.equal((await as('gus-key').get(`/v1/resources/${entry.id}/links`)).status, 200)
  const summary = await as('gus-key').get(`/v1/resources/${entry.id}/summary`)
  assert.equal(summary.status, 200, summary.body)
  assert.match(summary.json.text, /removed a member from team “Design”/)
  assert.equal((await as('bot-token').get(`/v1/resources/${entry.id}/summary`)).status, 404)
  assert.equal((await as('bot-token').get(`/v1/resources/${entry.id}/links`)).status, 404)
  assert.equal((await as('bot-token').get(`/v1/activity?resource_id=${made.json.id}`)).status, 404)
  const botFeed = await as('bot-token').get('/v1/changes?from=start')
  assert.ok(!botFeed.body.includes(made.json.id))
  const feed = await as('bob-key').get('/v1/changes?from=start&types=team.member_removed')
  assert.deepEqual(
    feed.json.data.map((c: { resource_id: string; changes: unknown }) => [
      c.resource_id,
      c.changes,
    ]),
    [
      [
        made.json.id,
        { member: { from: id('bob'), to: null, from_name: 'Bob Member', to_name: null } },
      ],
    ],
  )
})

test('only owners and admins change teams, through an unfenced credential', async () => {
  for (const key of ['alice-key', 'bob-key', 'gus-key']) {
    const reply = await as(key).post('/v1/teams', { name: `By ${key}` })
    assert.equal(reply.status, 403, key)
    assert.equal(reply.json.code, 'forbidden')
  }
  const bot = await as('bot-token').post('/v1/teams', { name: 'Bots' })
  assert.equal(bot.status, 403)
  const readOnly = await as('read-only-key').post('/v1/teams', { name: 'Nope' })
  assert.equal(readOnly.json.code, 'insufficient_scope')
  const fenced = await as('olive-key').post('/v1/api-keys', {
    name: 'fenced',
    scopes: ['people:read', 'people:write'],
    project_ids: [id('open')],
  })
  assert.equal(fenced.status, 201, fenced.body)
  const byFenced = await client(t.app, fenced.json.token).post(`/v1/teams/${id('eng')}/members`, {
    person_id: 'me',
  })
  assert.equal(byFenced.status, 403)
  const names = await t.db.db.selectFrom('teams').select('name').execute()
  assert.deepEqual(
    names.map((row) => row.name).filter((name) => name.startsWith('By ')),
    [],
  )
})

test('names are unique ignoring case; renaming records the change once', async () => {
  const clash = await as('olive-key').post('/v1/teams', { name: 'engineering' })
  assert.equal(clash.status, 409, clash.body)
  const renamed = await as('olive-key').patch(`/v1/teams/${id('eng')}`, { name: 'Platform' })
  assert.equal(renamed.status, 200, renamed.body)
  assert.equal(renamed.json.name, 'Platform')
  const same = await as('olive-key').patch(`/v1/teams/${id('eng')}`, { name: 'Platform' })
  assert.equal(same.status, 200)
  const events = await eventsOf(id('eng'))
  assert.deepEqual(
    events.map((e) => e.type),
    ['team.updated'],
  )
  assert.deepEqual(
    (events[0]?.data as { previous_attributes?: unknown } | undefined)?.previous_attributes,
    {
      name: 'Engineering',
    },
  )
  const audit = await t.db.db
    .selectFrom('audit_log')
    .select(['action', 'diff'])
    .where('resource_id', '=', id('eng'))
    .execute()
  assert.deepEqual(
    audit.map((a) => a.action),
    ['team.updated'],
  )
})

test('unknown, hidden and malformed ids are one 404; bad bodies are 422s', async () => {
  const unknownTeam = await as('olive-key').post('/v1/teams/team_0000000000000000000000/members', {
    person_id: id('bob'),
  })
  assert.equal(unknownTeam.status, 404)
  const unknownPerson = await as('olive-key').post(`/v1/teams/${id('eng')}/members`, {
    person_id: 'usr_0000000000000000000000',
  })
  assert.equal(unknownPerson.status, 404)
  assert.equal(unknownPerson.json.errors[0].path, '/person_id')
  const notMember = await as('olive-key').delete(`/v1/teams/${id('eng')}/members/${id('bob')}`)
  assert.equal(notMember.status, 404)
  for (const body of [{ name: ' ' }, {}, { name: 'x', extra: 1 }]) {
    const reply = await as('olive-key').post('/v1/teams', body)
    assert.equal(reply.status, 422, JSON.stringify(body))
  }
})

test('a change to a person is in the feed of whoever may see them: a guest who shares a project', async () => {
  const added = await as('alice-key').post(`/v1/projects/${id('open')}/members`, {
    person_id: id('bob'),
  })
  assert.equal(added.status, 200, added.body)
  const promoted = await as('olive-key').patch(`/v1/people/${id('bob')}`, { role: 'admin' })
  assert.equal(promoted.status, 200, promoted.body)
  const heard = async (key: string) =>
    (await as(key).get('/v1/changes?from=start&types=person.updated')).json.data.map(
      (c: { resource_id: string }) => c.resource_id,
    )
  // Gus, a guest, shares the open project with Bob; the integration shares none with him.
  assert.deepEqual(await heard('gus-key'), [id('bob')])
  assert.deepEqual(await heard('alice-key'), [id('bob')])
  assert.deepEqual(await heard('bot-token'), [])
  await as('olive-key').patch(`/v1/people/${id('bob')}`, { role: 'member' })
})
