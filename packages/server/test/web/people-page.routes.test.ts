import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf } from '../harness/bundles.ts'
import { peopleBundle } from '../harness/people-bundle.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { hiddenValue, mainText, signIn, type Visitor } from '../harness/web-visitor.ts'

// The People page (web/people-page.routes.ts): owners and admins only; every change runs the
// API's command, so its rules and refusals are the API's.

let t: TestApp
let ws: ImportResult
const id = (key: string) => ws.ids[key] as string
const visitor = (key: string) => signIn(t, { workspaceId: ws.workspace_id, personId: id(key) })
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

test('members and guests get a 403 page and no People link; admins get the page', async () => {
  for (const key of ['alice', 'gus']) {
    const page = await (await visitor(key)).get('/people')
    assert.equal(page.status, 403)
    assert.match(mainText(page.body), /for workspace owners and admins/)
    const home = await (await visitor(key)).get('/')
    assert.ok(!home.body.includes('href="/people"'))
  }
  const admin = await visitor('adam')
  const page = await admin.get('/people')
  assert.equal(page.status, 200)
  assert.match(page.body, /href="\/people" aria-current="page"/)
  for (const name of ['Olive Owner', 'Alice Member', 'Gus Guest'])
    assert.match(mainText(page.body), new RegExp(name))
})

test("a member forging the page's forms changes nothing", async () => {
  const alice = await visitor('alice')
  const before = await roleOf('gus')
  const reply = await alice.submit(`/people/${id('gus')}/role`, [['role', 'member']])
  assert.equal(reply.status, 403)
  const invite = await alice.submit('/people/invitations', [
    ['email', 'x@example.test'],
    ['role', 'member'],
  ])
  assert.equal(invite.status, 403)
  assert.equal(await roleOf('gus'), before)
  assert.equal((await t.db.db.selectFrom('invitations').select('id').execute()).length, 0)
})

test('an invitation made on the page shows its link once; a resubmission replays without it', async () => {
  const admin = await visitor('adam')
  const page = await admin.get('/people')
  const formKey = hiddenValue(page.body, 'form_key')
  const fields: [string, string][] = [
    ['form_key', formKey],
    ['email', 'paula@example.test'],
    ['name', 'Paula'],
    ['role', 'guest'],
  ]
  const made = await admin.submit('/people/invitations', fields)
  assert.equal(made.status, 201, made.body)
  const link = /\/join\/(wg_inv_[0-9A-Za-z]+)/.exec(made.body)?.[1]
  assert.ok(link, 'the link is on the page')
  assert.match(mainText(made.body), /No email server is set up/)
  const again = await admin.submit('/people/invitations', fields)
  assert.equal(again.status, 200)
  assert.ok(!again.body.includes(link))
  assert.match(mainText(again.body), /already submitted/)
  assert.equal(
    (
      await t.db.db
        .selectFrom('invitations')
        .select('id')
        .where('email', '=', 'paula@example.test')
        .execute()
    ).length,
    1,
  )
  // Listed as pending; an admin may not invite an admin; a taken email comes back with why.
  assert.match(mainText((await admin.get('/people')).body), /paula@example\.test/)
  const asAdmin = await admin.submit('/people/invitations', [
    ['form_key', 'k2'],
    ['email', 'boss@example.test'],
    ['role', 'admin'],
  ])
  assert.equal(asAdmin.status, 403)
  const taken = await admin.submit('/people/invitations', [
    ['form_key', 'k3'],
    ['email', 'alice@example.test'],
    ['role', 'member'],
  ])
  assert.equal(taken.status, 409)
  assert.match(mainText(taken.body), /already belongs to a person/)
  const bad = await admin.submit('/people/invitations', [
    ['form_key', 'k4'],
    ['email', 'not an email'],
    ['role', 'member'],
  ])
  assert.equal(bad.status, 400)
})

test("roles change on the page, with the API's rules", async () => {
  const admin = await visitor('adam')
  const done = await admin.submit(`/people/${id('gus')}/role`, [['role', 'member']])
  assert.equal(done.status, 303)
  assert.equal(done.headers.location, '/people?done=role')
  assert.equal(await roleOf('gus'), 'member')
  assert.match(mainText((await admin.get('/people?done=role')).body), /The role was changed/)
  // An admin cannot make an admin, nor demote the owner.
  assert.equal((await admin.submit(`/people/${id('gus')}/role`, [['role', 'admin']])).status, 403)
  assert.equal(
    (await admin.submit(`/people/${id('olive')}/role`, [['role', 'member']])).status,
    403,
  )
  assert.equal((await admin.submit(`/people/${id('gus')}/role`, [['role', 'emperor']])).status, 422)
  const forged = await admin.post(`/people/${id('gus')}/role`, [
    ['csrf', 'nope'],
    ['role', 'guest'],
  ])
  assert.equal(forged.status, 403)
  assert.equal(await roleOf('gus'), 'member')
  assert.equal((await admin.submit(`/people/${id('gus')}/role`, [['role', 'guest']])).status, 303)
})

test('deactivating asks first, then signs the person out; revoking an invitation asks first', async () => {
  const admin = await visitor('adam')
  const bob: Visitor = await visitor('bob')
  assert.equal((await bob.get('/')).status, 200)
  const confirm = await admin.get(`/people/${id('bob')}/deactivate`)
  assert.equal(confirm.status, 200)
  assert.match(mainText(confirm.body), /Deactivate Bob Member\?/)
  assert.equal((await admin.get(`/people/${id('olive')}/deactivate`)).status, 200)
  assert.equal((await admin.get('/people/usr_00000000000000000000000000/deactivate')).status, 404)
  const done = await admin.submit(`/people/${id('bob')}/deactivate`)
  assert.equal(done.status, 303)
  assert.equal((await bob.get('/')).status, 303)
  assert.equal((await client(t.app, tokenOf(ws, 'bob-key')).get('/v1/me')).status, 401)
  assert.match(mainText((await admin.get('/people')).body), /deactivated/)
  // The owner stays: an admin's deactivation of an owner is refused with why.
  const owner = await admin.submit(`/people/${id('olive')}/deactivate`)
  assert.equal(owner.status, 403)
  assert.equal((await admin.submit(`/people/${id('bob')}/reactivate`)).status, 303)

  const invited = await client(t.app, tokenOf(ws, 'olive-key')).post('/v1/invitations', {
    email: 'gone@example.test',
    role: 'member',
  })
  const path = `/people/invitations/${invited.json.invitation.id}/revoke`
  const ask = await admin.get(path)
  assert.equal(ask.status, 200)
  assert.match(mainText(ask.body), /gone@example\.test/)
  assert.equal((await admin.submit(path)).status, 303)
  assert.equal((await admin.get(path)).status, 404)
  const join = await client(t.app).get(new URL(invited.json.url).pathname, { accept: 'text/html' })
  assert.equal(join.status, 410)
})
