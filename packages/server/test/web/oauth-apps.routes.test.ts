import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { appTokens } from '../harness/oauth-client-requests.ts'
import {
  confidentialApp,
  type ListeningTestApp,
  startListeningTestApp,
} from '../harness/oauth-flow.ts'
import { contentState } from '../harness/row-counts.ts'
import { client } from '../harness/test-app.ts'
import { type Fields, mainText, signIn } from '../harness/web-visitor.ts'

// The OAuth apps page (web/oauth-apps.routes.ts): the apps a person authorized (their OAuth
// grants), each revocable through the revocation pages (credential-revoke.routes.test.ts), which
// here hold only the person's own grants. Owners revoke others' on /settings/tokens instead
// (workspace-tokens.routes.test.ts). The page in a browser: browser/credentials-pages.

const APPS = '/settings/apps'
const PASSWORD = 'a long test passphrase'
const WEB_URI = 'https://app.example.test/cb'

let t: ListeningTestApp
let ws: ImportResult
// Each person's grant to the app, and an access token of it.
const grants: Record<string, { id: string; token: string }> = {}
before(async () => {
  t = await startListeningTestApp({ OAUTH_SIGN_INS_PER_MINUTE: '100000' })
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  ws = await importOk(t.db.db, bundle)
  const app = await confidentialApp(t.db.db, WEB_URI)
  for (const [person, scope] of [
    ['alice', 'project:read task:read'],
    ['bob', 'project:read'],
  ] as const) {
    const user = { email: `${person}@example.test`, password: PASSWORD }
    const { tokens } = await appTokens(t.origin, app, { redirectUri: WEB_URI, scope, user })
    const grant = await t.db.db
      .selectFrom('oauth_artifacts')
      .select('grant_id')
      .where('model', '=', 'Grant')
      .where('account_id', '=', ws.ids[person] as string)
      .executeTakeFirstOrThrow()
    grants[person] = { id: grant.grant_id as string, token: tokens.access_token }
  }
})
after(() => t.close())

const as = (person: string) =>
  signIn(t, { workspaceId: ws.workspace_id, personId: ws.ids[person] as string })
const grantOf = (person: string) => grants[person] as { id: string; token: string }
const appStatus = async (person: string) =>
  (await client(t.app, grantOf(person).token).get('/v1/projects')).status
const state = () => contentState(t.db.db, ['oauth_artifacts'])

test('signed out, the pages lead to sign-in and a revocation writes nothing', async () => {
  const before = await state()
  const anonymous = client(t.app)
  for (const path of [APPS, `${APPS}/${grantOf('alice').id}/revoke`]) {
    const reply = await anonymous.get(path)
    assert.equal(reply.status, 303, path)
    assert.equal(reply.headers.location, `/sign-in?return_to=${encodeURIComponent(path)}`)
  }
  const posted = await anonymous.post(`${APPS}/${grantOf('alice').id}/revoke`, '', {
    'content-type': 'application/x-www-form-urlencoded',
  })
  assert.equal(posted.status, 303)
  assert.deepEqual(await state(), before)
})

test("the page lists only the person's own authorized apps, even for an owner", async () => {
  const page = await (await as('alice')).get(APPS)
  assert.equal(page.status, 200)
  assert.equal(page.headers['cache-control'], 'no-store')
  assert.match(
    mainText(page.body),
    /^OAuth apps Apps you allowed .* Actions Web app project:read , task:read \S+ \S+ UTC — Revoke/,
  )
  assert.match(page.body, new RegExp(`href="${APPS}/${grantOf('alice').id}/revoke"`))
  assert.ok(!page.body.includes(grantOf('bob').id), "bob's grant is not on alice's page")
  // An owner manages every grant on the workspace's tokens page; this page is theirs alone.
  const owner = await (await as('olive')).get(APPS)
  assert.equal(owner.status, 200)
  assert.match(mainText(owner.body), /You have not authorized any app\./)
  for (const person of ['alice', 'bob']) assert.ok(!owner.body.includes(grantOf(person).id))
})

test("another person's app, even for an owner, is the 404 page, and stays authorized", async () => {
  const unknownId = `grt_${'0'.repeat(26)}`
  const before = await state()
  for (const person of ['olive', 'alice']) {
    const visitor = await as(person)
    const unknown = await visitor.get(`${APPS}/${unknownId}/revoke`)
    assert.equal(unknown.status, 404)
    assert.match(unknown.body, /<h1>Page not found<\/h1>/)
    for (const id of [grantOf('bob').id, ws.api_keys[`${person}-key`]?.id as string]) {
      const confirm = await visitor.get(`${APPS}/${id}/revoke`)
      assert.equal(confirm.status, 404, `${person}: ${id}`)
      assert.equal(confirm.body, unknown.body, `${person}: ${id}`)
      const posted = await visitor.submit(`${APPS}/${id}/revoke`)
      assert.equal(posted.status, 404, `${person}: ${id}`)
      assert.equal(posted.body, unknown.body, `${person}: ${id}`)
    }
  }
  assert.deepEqual(await state(), before)
  assert.equal(await appStatus('bob'), 200)
})

test('a cross-site or tokenless revocation is a 403 and the app stays', async () => {
  const alice = await as('alice')
  const path = `${APPS}/${grantOf('alice').id}/revoke`
  const before = await state()
  for (const [what, fields, headers] of [
    ['another origin', [['csrf', alice.csrf]], { origin: 'https://evil.example' }],
    ['a cross-site fetch', [['csrf', alice.csrf]], { 'sec-fetch-site': 'cross-site' }],
    ['no token', [], { origin: alice.origin }],
  ] as [string, Fields, Record<string, string>][]) {
    const reply = await alice.post(path, fields, headers)
    assert.equal(reply.status, 403, what)
    assert.match(reply.body, /<h1>Form expired<\/h1>/, what)
  }
  assert.deepEqual(await state(), before)
  assert.equal(await appStatus('alice'), 200)
})

test("revoking one's own app: confirm, back to the list, its tokens refused", async () => {
  const alice = await as('alice')
  const { id } = grantOf('alice')
  assert.equal(await appStatus('alice'), 200)
  const confirm = await alice.get(`${APPS}/${id}/revoke`)
  assert.equal(confirm.status, 200)
  assert.equal(
    mainText(confirm.body),
    'Revoke Revoke the app “Web app”? Its tokens and the keys made through it stop working at ' +
      'once. This cannot be undone. Revoke the app “Web app” Cancel',
  )
  const reply = await alice.submit(`${APPS}/${id}/revoke`)
  assert.equal(reply.status, 303, mainText(reply.body))
  assert.equal(reply.headers.location, APPS)
  assert.equal(await appStatus('alice'), 401)
  assert.equal(await appStatus('bob'), 200, "bob's grant of the same app is untouched")
  const left = await t.db.db
    .selectFrom('oauth_artifacts')
    .select('model')
    .where('grant_id', '=', id)
    .execute()
  assert.deepEqual(left, [])
  const audit = await t.db.db
    .selectFrom('audit_log')
    .select(['via', 'actor_id'])
    .where('resource_id', '=', id)
    .where('action', '=', 'oauth_grant.revoked')
    .execute()
  assert.deepEqual(audit, [{ via: 'web', actor_id: ws.ids.alice }])
  assert.match(mainText((await alice.get(APPS)).body), /You have not authorized any app\./)
  assert.equal((await alice.get(`${APPS}/${id}/revoke`)).status, 404, 'gone: not offered again')
})
