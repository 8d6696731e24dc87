import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf } from '../harness/bundles.ts'
import { peopleBundle } from '../harness/people-bundle.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { mainText, signIn } from '../harness/web-visitor.ts'

// The Teams page (web/teams-page.routes.ts): everyone sees the teams they may see (a guest, their
// own); owners and admins change them through the API's commands, so the refusals are the API's.

let t: TestApp
let ws: ImportResult
let partners: string
const id = (key: string) => ws.ids[key] as string
const visitor = (key: string) => signIn(t, { workspaceId: ws.workspace_id, personId: id(key) })

/** Every team with its members, and the audit entries: what a refused form must leave alone. */
async function teamState() {
  const teams = await t.db.db.selectFrom('teams').select(['id', 'name']).orderBy('id').execute()
  const members = await t.db.db
    .selectFrom('team_members')
    .select(['team_id', 'person_id'])
    .orderBy('team_id')
    .orderBy('person_id')
    .execute()
  const audit = await t.db.db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  return { teams, members, audit: Number(audit.n) }
}

const membersOf = async (teamId: string) =>
  (
    await t.db.db
      .selectFrom('team_members')
      .select('person_id')
      .where('team_id', '=', teamId)
      .execute()
  )
    .map((row) => row.person_id)
    .sort()

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, peopleBundle())
  // A team of the guest's: the one team a guest sees.
  const made = await client(t.app, tokenOf(ws, 'olive-key')).post('/v1/teams', {
    name: 'Partners',
    member_ids: [id('gus')],
  })
  assert.equal(made.status, 201, made.body)
  partners = made.json.id
})
after(() => t.close())

test('everyone has the Teams page; only owners and admins get its forms', async () => {
  for (const key of ['olive', 'adam', 'alice', 'gus']) {
    const page = await (await visitor(key)).get('/teams')
    assert.equal(page.status, 200, key)
    assert.match(page.body, /href="\/teams" aria-current="page"/, key)
  }
  const admin = await (await visitor('adam')).get('/teams')
  assert.match(mainText(admin.body), /Engineering .*Alice Member/)
  assert.match(admin.body, /action="\/teams"/)
  assert.match(admin.body, new RegExp(`action="/teams/${id('eng')}/name"`))
  assert.match(admin.body, new RegExp(`action="/teams/${id('eng')}/members"`))
  assert.match(admin.body, new RegExp(`href="/teams/${id('eng')}/members/${id('alice')}/remove"`))

  const member = await (await visitor('alice')).get('/teams')
  assert.match(mainText(member.body), /Engineering .*Alice Member/)
  assert.match(mainText(member.body), /Partners .*Gus Guest/)
  assert.ok(!/<form[^>]+action="\/teams/.test(member.body), 'no team form for a member')
  assert.ok(!member.body.includes('/remove"'), 'no remove link for a member')
})

test('a guest sees only their own teams, and a hidden team is the 404 page', async () => {
  const gus = await visitor('gus')
  const page = await gus.get('/teams')
  assert.match(mainText(page.body), /Partners/)
  assert.ok(!mainText(page.body).includes('Engineering'), 'a guest does not see others’ teams')
  assert.ok(!page.body.includes(id('eng')))
  const unknown = await gus.get(`/teams/team_${'0'.repeat(26)}/members/${id('alice')}/remove`)
  const hidden = await gus.get(`/teams/${id('eng')}/members/${id('alice')}/remove`)
  assert.equal(hidden.status, 404)
  assert.equal(hidden.body, unknown.body, 'the same page as an unknown id')
  const before = await teamState()
  const renamed = await gus.submit(`/teams/${id('eng')}/name`, [['name', 'Mine now']])
  assert.equal(renamed.status, 404)
  assert.match(renamed.body, /<h1>Page not found<\/h1>/)
  // Their own team: seen, but a guest changes nothing.
  const own = await gus.submit(`/teams/${partners}/name`, [['name', 'Guests']])
  assert.equal(own.status, 403)
  assert.deepEqual(await teamState(), before)
})

test('a member posting team changes gets a 403 page, and nothing is written', async () => {
  const alice = await visitor('alice')
  const before = await teamState()
  const tries: [string, [string, string][]][] = [
    ['/teams', [['name', 'Shadow team']]],
    [`/teams/${id('eng')}/name`, [['name', 'Renamed']]],
    [`/teams/${id('eng')}/members`, [['person_id', id('bob')]]],
    [`/teams/${id('eng')}/members/${id('alice')}/remove`, []],
  ]
  for (const [path, fields] of tries) {
    const reply = await alice.submit(path, fields)
    assert.equal(reply.status, 403, path)
    assert.match(mainText(reply.body), /owners and admins may change teams/, path)
  }
  const confirm = await alice.get(`/teams/${id('eng')}/members/${id('alice')}/remove`)
  assert.equal(confirm.status, 403)
  assert.deepEqual(await teamState(), before)
})

test('a form without the session’s token is refused before anything is read', async () => {
  const admin = await visitor('adam')
  const before = await teamState()
  const forged = await admin.post('/teams', [
    ['csrf', 'forged'],
    ['name', 'Forged team'],
  ])
  assert.equal(forged.status, 403)
  assert.match(mainText(forged.body), /Form expired/)
  const tokenless = await admin.post(`/teams/${id('eng')}/members`, [['person_id', id('bob')]], {
    origin: admin.origin,
  })
  assert.equal(tokenless.status, 403)
  const elsewhere = await admin.post(
    `/teams/${id('eng')}/name`,
    [
      ['csrf', admin.csrf],
      ['name', 'From elsewhere'],
    ],
    { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
  )
  assert.equal(elsewhere.status, 403)
  assert.deepEqual(await teamState(), before)
})

test('an admin creates, renames and fills a team; a removal asks first; refusals show by the field', async () => {
  const admin = await visitor('adam')
  const made = await admin.submit('/teams', [
    ['name', 'Design'],
    ['member_ids', id('alice')],
    ['member_ids', id('bob')],
  ])
  assert.equal(made.status, 303, made.body)
  assert.equal(made.headers.location, '/teams?done=created')
  const design = await t.db.db
    .selectFrom('teams')
    .select('id')
    .where('name', '=', 'Design')
    .executeTakeFirstOrThrow()
  assert.deepEqual(await membersOf(design.id), [id('alice'), id('bob')].sort())
  const audit = await t.db.db
    .selectFrom('audit_log')
    .select(['action', 'via', 'actor_id'])
    .where('resource_id', '=', design.id)
    .execute()
  assert.deepEqual(
    audit.map((entry) => [entry.action, entry.via, entry.actor_id]),
    [['team.created', 'web', id('adam')]],
  )
  assert.match(mainText((await admin.get('/teams?done=created')).body), /The team was created/)

  // A taken name (ignoring case) comes back with the message beside the name, nothing made.
  const taken = await admin.submit('/teams', [['name', 'design']])
  assert.equal(taken.status, 409)
  assert.match(taken.body, /id="team-name"[^>]*value="design" aria-invalid="true"/)
  assert.match(mainText(taken.body), /is the name of another team/)
  const blank = await admin.submit('/teams', [['name', '']])
  assert.equal(blank.status, 400)
  assert.match(blank.body, /id="team-name"[^>]* aria-invalid="true"/)
  assert.equal(
    (await t.db.db.selectFrom('teams').select('id').where('name', 'ilike', 'design').execute())
      .length,
    1,
  )

  // Renaming to a taken name reopens that team's rename form with why.
  const clash = await admin.submit(`/teams/${design.id}/name`, [['name', 'Engineering']])
  assert.equal(clash.status, 409)
  assert.match(clash.body, /<details class="team-form" open>/)
  assert.match(clash.body, new RegExp(`id="${design.id}-rename"[^>]*aria-invalid="true"`))
  const renamed = await admin.submit(`/teams/${design.id}/name`, [['name', 'Product design']])
  assert.equal(renamed.status, 303)
  assert.equal(
    (
      await t.db.db
        .selectFrom('teams')
        .select('name')
        .where('id', '=', design.id)
        .executeTakeFirstOrThrow()
    ).name,
    'Product design',
  )

  const added = await admin.submit(`/teams/${id('eng')}/members`, [['person_id', id('bob')]])
  assert.equal(added.status, 303)
  assert.deepEqual(await membersOf(id('eng')), [id('alice'), id('bob')].sort())
  const unknown = await admin.submit(`/teams/${id('eng')}/members`, [
    ['person_id', `usr_${'0'.repeat(26)}`],
  ])
  assert.equal(unknown.status, 404)

  const ask = await admin.get(`/teams/${id('eng')}/members/${id('bob')}/remove`)
  assert.equal(ask.status, 200)
  assert.match(mainText(ask.body), /Remove Bob Member from Engineering\?/)
  assert.deepEqual(
    await membersOf(id('eng')),
    [id('alice'), id('bob')].sort(),
    'asking removes no one',
  )
  const removed = await admin.submit(`/teams/${id('eng')}/members/${id('bob')}/remove`)
  assert.equal(removed.status, 303)
  assert.equal(removed.headers.location, '/teams?done=removed')
  assert.deepEqual(await membersOf(id('eng')), [id('alice')])
  assert.equal((await admin.get(`/teams/${id('eng')}/members/${id('bob')}/remove`)).status, 404)
  assert.equal((await admin.submit(`/teams/${id('eng')}/members/${id('bob')}/remove`)).status, 404)
})
