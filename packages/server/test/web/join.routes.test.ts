import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf } from '../harness/bundles.ts'
import { PEOPLE_PASSWORD, peopleBundle } from '../harness/people-bundle.ts'
import { openFormPage, postFormAs, setCookie } from '../harness/signed-out-browser.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { mainText } from '../harness/web-visitor.ts'

// The join page (web/join.routes.ts): an invitation's link, used once, makes the person with its
// role, sets their password and signs them in; every link that does not work gets one page.

let t: TestApp
let ws: ImportResult
const as = (key: string) => client(t.app, tokenOf(ws, key))
const NEW_PASSWORD = 'a brand new passphrase'

before(async () => {
  t = await startTestApp({ env: { OAUTH_SIGN_INS_PER_MINUTE: '100000' } })
  ws = await importOk(t.db.db, peopleBundle())
  // Zed already signs in to another workspace: joining asks for that password.
  await importOk(t.db.db, {
    format: 'workgraph.bundle/v1',
    workspace: { key: 'other', name: 'Other corp' },
    people: [
      {
        key: 'zed',
        name: 'Zed Elsewhere',
        email: 'zed@example.test',
        role: 'owner',
        password: PEOPLE_PASSWORD,
      },
    ],
  })
})
after(() => t.close())

async function invite(
  email: string,
  role = 'member',
  name?: string,
): Promise<{ path: string; id: string }> {
  const reply = await as('olive-key').post('/v1/invitations', {
    email,
    role,
    ...(name ? { name } : {}),
  })
  assert.equal(reply.status, 201, reply.body)
  return { path: new URL(reply.json.url).pathname, id: reply.json.invitation.id }
}

const personByEmail = (email: string) =>
  t.db.db
    .selectFrom('people')
    .selectAll()
    .where('workspace_id', '=', ws.workspace_id)
    .where('email', '=', email)
    .executeTakeFirst()

async function goneBody(path: string): Promise<string> {
  const reply = await client(t.app).get(path, { accept: 'text/html' })
  assert.equal(reply.status, 410, `${path}: ${reply.status}`)
  assert.match(reply.body, /This invitation has expired or was used/)
  return reply.body
}

test('the link opens a form for the workspace; joining makes the person, signs them in, once', async () => {
  const { path, id } = await invite('nina@example.test', 'guest', 'Nina New')
  const browser = await openFormPage(t, path)
  const text = mainText(browser.page.body)
  assert.match(text, /Join Test workspace/)
  assert.match(text, /nina@example\.test/)
  assert.match(browser.page.body, /value="Nina New"/)
  assert.match(browser.page.body, /autocomplete="new-password"/)
  assert.equal(browser.page.headers['cache-control'], 'no-store')
  assert.match(String(browser.page.headers['content-security-policy']), /default-src 'none'/)

  // A short password comes back with why, and nothing is made.
  const short = await postFormAs(t, browser, path, [
    ['name', 'Nina'],
    ['password', 'short'],
  ])
  assert.equal(short.status, 422)
  assert.match(mainText(short.body), /at least 12 characters/)
  assert.equal(await personByEmail('nina@example.test'), undefined)

  const joined = await postFormAs(t, browser, path, [
    ['name', 'Nina Nova'],
    ['password', NEW_PASSWORD],
  ])
  assert.equal(joined.status, 303, joined.body)
  assert.equal(joined.headers.location, '/')
  const cookie = String(setCookie(joined, 'workgraph_session')).split(';')[0] as string
  const person = await personByEmail('nina@example.test')
  assert.equal(person?.role, 'guest')
  assert.equal(person?.name, 'Nina Nova')
  const home = await client(t.app).get('/', { cookie, accept: 'text/html' })
  assert.equal(home.status, 200)
  assert.match(home.body, /Nina Nova/)
  const invitation = await t.db.db
    .selectFrom('invitations')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  assert.ok(invitation.accepted_at)
  assert.equal(invitation.person_id, person?.id)
  const events = await t.db.db
    .selectFrom('events')
    .selectAll()
    .where('subject_id', '=', person?.id as string)
    .execute()
  assert.deepEqual(
    events.map((event) => event.type),
    ['person.joined'],
  )
  assert.equal(events[0]?.data.object.email, null)
  const [audit] = await t.db.db
    .selectFrom('audit_log')
    .selectAll()
    .where('resource_id', '=', person?.id as string)
    .execute()
  assert.equal(audit?.action, 'person.joined')
  assert.equal(audit?.actor_id, person?.id)
  assert.equal(audit?.via, 'web')
  assert.equal(audit?.token_id, id)

  // The new password signs in; the link is used up, whoever opens it.
  const signIn = await openFormPage(t, '/sign-in')
  const signedIn = await postFormAs(t, signIn, '/sign-in', [
    ['email', 'nina@example.test'],
    ['password', NEW_PASSWORD],
    ['return_to', '/'],
  ])
  assert.equal(signedIn.status, 303)
  await goneBody(path)
  const again = await postFormAs(t, browser, path, [
    ['name', 'Nina Twice'],
    ['password', NEW_PASSWORD],
  ])
  assert.equal(again.status, 410)
  assert.equal(
    (
      await t.db.db
        .selectFrom('people')
        .select('id')
        .where('email', '=', 'nina@example.test')
        .execute()
    ).length,
    1,
  )
})

test('used, revoked, expired, unknown and malformed links get the same page', async () => {
  const used = await invite('used@example.test')
  const browser = await openFormPage(t, used.path)
  assert.equal(
    (
      await postFormAs(t, browser, used.path, [
        ['name', 'U'],
        ['password', NEW_PASSWORD],
      ])
    ).status,
    303,
  )
  const revoked = await invite('revoked@example.test')
  assert.equal((await as('olive-key').delete(`/v1/invitations/${revoked.id}`)).status, 200)
  const expired = await invite('expired@example.test')
  const unknown = `/join/wg_inv_${'A'.repeat(32)}${'0'.repeat(6)}`
  const bodies = [
    await goneBody(used.path),
    await goneBody(revoked.path),
    await goneBody(unknown),
    await goneBody('/join/nonsense'),
    await goneBody(`/join/${'x'.repeat(300)}`),
  ]
  t.clock.advance(7 * 86_400_000 + 1)
  bodies.push(await goneBody(expired.path))
  for (const body of bodies) assert.equal(body, bodies[0])
  // Posting to them is the same page, and changes nothing.
  const post = await postFormAs(t, browser, revoked.path, [
    ['name', 'R'],
    ['password', NEW_PASSWORD],
  ])
  assert.equal(post.status, 410)
  assert.equal(post.body, bodies[0])
  assert.equal(await personByEmail('revoked@example.test'), undefined)
  assert.equal(await personByEmail('expired@example.test'), undefined)
})

test('an email that signs in elsewhere joins with that password, not a new one', async () => {
  const { path } = await invite('zed@example.test', 'member')
  const browser = await openFormPage(t, path)
  assert.match(browser.page.body, /autocomplete="current-password"/)
  assert.match(mainText(browser.page.body), /already signs in/)
  const wrong = await postFormAs(t, browser, path, [
    ['name', 'Zed'],
    ['password', NEW_PASSWORD],
  ])
  assert.equal(wrong.status, 401)
  assert.equal(await personByEmail('zed@example.test'), undefined)
  const joined = await postFormAs(t, browser, path, [
    ['name', 'Zed'],
    ['password', PEOPLE_PASSWORD],
  ])
  assert.equal(joined.status, 303, joined.body)
  const here = await personByEmail('zed@example.test')
  const there = await t.db.db
    .selectFrom('people')
    .select('password_hash')
    .where('email', '=', 'zed@example.test')
    .where('workspace_id', '!=', ws.workspace_id)
    .executeTakeFirstOrThrow()
  assert.equal(here?.password_hash, there.password_hash)
})

test('a form without its token, or from another site, is refused and changes nothing', async () => {
  const { path } = await invite('forged@example.test')
  const browser = await openFormPage(t, path)
  const noToken = await postFormAs(t, { cookie: browser.cookie, csrf: '' }, path, [
    ['name', 'F'],
    ['password', NEW_PASSWORD],
  ])
  assert.equal(noToken.status, 403)
  const noCookie = await postFormAs(t, { cookie: '', csrf: browser.csrf }, path, [
    ['name', 'F'],
    ['password', NEW_PASSWORD],
  ])
  assert.equal(noCookie.status, 403)
  const payload = new URLSearchParams([
    ['csrf', browser.csrf],
    ['name', 'F'],
    ['password', NEW_PASSWORD],
  ]).toString()
  const crossSite = await client(t.app).post(path, payload, {
    'content-type': 'application/x-www-form-urlencoded',
    cookie: browser.cookie,
    origin: 'https://evil.example',
  })
  assert.equal(crossSite.status, 403)
  assert.equal(await personByEmail('forged@example.test'), undefined)
  // A blank name is refused too.
  const blank = await postFormAs(t, browser, path, [
    ['name', '   '],
    ['password', NEW_PASSWORD],
  ])
  assert.equal(blank.status, 422)
  assert.equal(await personByEmail('forged@example.test'), undefined)
})

test('two submissions of one link at once make one person', async () => {
  const { path } = await invite('race@example.test')
  const browser = await openFormPage(t, path)
  const replies = await Promise.all([
    postFormAs(t, browser, path, [
      ['name', 'Race A'],
      ['password', NEW_PASSWORD],
    ]),
    postFormAs(t, browser, path, [
      ['name', 'Race B'],
      ['password', NEW_PASSWORD],
    ]),
  ])
  assert.deepEqual(replies.map((reply) => reply.status).sort(), [303, 410])
  assert.equal(
    (
      await t.db.db
        .selectFrom('people')
        .select('id')
        .where('email', '=', 'race@example.test')
        .execute()
    ).length,
    1,
  )
})
