import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { contentState } from '../harness/row-counts.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { type Fields, mainText, signIn } from '../harness/web-visitor.ts'

// The confirmation and revocation pages every credentials list registers (`{list}/:id/revoke`,
// web/credential-revoke.routes.ts), through the two lists that hold tokens: a person's API keys
// and the workspace's tokens (owners and admins only). Which ids each list holds is its own
// file's subject (api-keys, oauth-apps, workspace-tokens).

const KEYS = '/settings/api-keys'
const TOKENS = '/settings/tokens'
const UNKNOWN = `key_${'0'.repeat(26)}`

let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp({ env: { PUBLIC_URL: 'http://127.0.0.1:8080' } })
  ws = await importOk(t.db.db, smallBundle())
})
after(() => t.close())

const as = (person: string) =>
  signIn(t, { workspaceId: ws.workspace_id, personId: ws.ids[person] as string })
const secretOf = (key: string) =>
  (ws.api_keys[key] ?? ws.workspace_tokens[key]) as { id: string; token: string }
const works = async (key: string) =>
  (await client(t.app, secretOf(key).token).get('/v1/workspace')).status === 200
const state = () => contentState(t.db.db)

test('signed out, a confirmation leads to sign-in and a revocation writes nothing', async () => {
  const path = `${KEYS}/${secretOf('alice-key').id}/revoke`
  const before = await state()
  const anonymous = client(t.app)
  const confirm = await anonymous.get(path)
  assert.equal(confirm.status, 303)
  assert.equal(confirm.headers.location, `/sign-in?return_to=${encodeURIComponent(path)}`)
  const posted = await anonymous.post(path, '', {
    'content-type': 'application/x-www-form-urlencoded',
  })
  assert.equal(posted.status, 303)
  assert.match(String(posted.headers.location), /^\/sign-in\?return_to=/)
  assert.deepEqual(await state(), before)
  assert.ok(await works('alice-key'))
})

test('the confirmation names the credential and what stops, and posts to itself', async () => {
  const alice = await as('alice')
  const { id } = secretOf('alice-key')
  const last4 = secretOf('alice-key').token.slice(-4)
  const page = await alice.get(`${KEYS}/${id}/revoke`)
  assert.equal(page.status, 200)
  assert.equal(page.headers['cache-control'], 'no-store')
  assert.equal(
    mainText(page.body),
    `Revoke Revoke the key “alice-key” (…${last4})? Anything using it is refused at once. ` +
      `This cannot be undone. Revoke the key “alice-key” (…${last4}) Cancel`,
  )
  assert.match(page.body, new RegExp(`<form method="post" action="${KEYS}/${id}/revoke">`))
  assert.match(page.body, new RegExp(`name="csrf" value="${alice.csrf}"`))
  assert.match(page.body, new RegExp(`class="button secondary" href="${KEYS}"`))
  const adam = await as('adam')
  const token = await adam.get(`${TOKENS}/${secretOf('bot-token').id}/revoke`)
  assert.equal(token.status, 200)
  assert.match(mainText(token.body), /^Revoke Revoke the workspace token “bot-token” \(…/)
  assert.match(token.body, new RegExp(`class="button secondary" href="${TOKENS}"`))
  assert.ok(await works('alice-key'), 'a confirmation page changes nothing')
})

test('a revocation: 303 back to its list, refused at once, audited as on the web', async () => {
  const alice = await as('alice')
  const { id } = secretOf('narrow-key')
  const reply = await alice.submit(`${KEYS}/${id}/revoke`)
  assert.equal(reply.status, 303, mainText(reply.body))
  assert.equal(reply.headers.location, KEYS)
  assert.equal(reply.headers['cache-control'], 'no-store')
  const refused = await client(t.app, secretOf('narrow-key').token).get('/v1/tasks')
  assert.equal(refused.status, 401)
  assert.equal(refused.json.code, 'invalid_token')
  const audit = await t.db.db
    .selectFrom('audit_log')
    .selectAll()
    .where('resource_id', '=', id)
    .execute()
  assert.deepEqual(
    audit.map((entry) => [entry.action, entry.via, entry.actor_id, entry.token_kind]),
    [['token.revoked', 'web', ws.ids.alice, 'web_session']],
  )
  // Revoked, it is no longer one the list holds: the 404 page, and nothing more is written.
  const before = await state()
  assert.equal((await alice.get(`${KEYS}/${id}/revoke`)).status, 404)
  const again = await alice.submit(`${KEYS}/${id}/revoke`)
  assert.equal(again.status, 404)
  assert.match(again.body, /<h1>Page not found<\/h1>/)
  assert.deepEqual(await state(), before)
})

test('an id its list does not hold: the 404 page, GET or POST; nothing revoked', async () => {
  const alice = await as('alice')
  const unknown = await alice.get(`${KEYS}/${UNKNOWN}/revoke`)
  assert.equal(unknown.status, 404)
  assert.match(unknown.body, /<h1>Page not found<\/h1>/)
  const before = await state()
  for (const [what, id] of [
    ["another person's key", secretOf('bob-key').id],
    ["an integration's token", secretOf('bot-token').id],
    ['an unknown id', UNKNOWN],
    ['a project id', ws.ids.open as string],
  ]) {
    const confirm = await alice.get(`${KEYS}/${id}/revoke`)
    assert.equal(confirm.status, 404, what)
    assert.equal(confirm.body, unknown.body, `${what}: the same page as an unknown id`)
    const posted = await alice.submit(`${KEYS}/${id}/revoke`)
    assert.equal(posted.status, 404, what)
    assert.equal(posted.body, unknown.body, what)
  }
  assert.deepEqual(await state(), before)
  assert.ok((await works('bob-key')) && (await works('bot-token')))
})

test("a list the person may not use is the 404 page, even for the person's own key", async () => {
  const alice = await as('alice')
  const unknown = await alice.get(`${KEYS}/${UNKNOWN}/revoke`)
  const own = `${TOKENS}/${secretOf('alice-key').id}/revoke`
  const before = await state()
  const confirm = await alice.get(own)
  assert.equal(confirm.status, 404)
  assert.equal(confirm.body, unknown.body)
  const posted = await alice.submit(own)
  assert.equal(posted.status, 404)
  assert.equal(posted.body, unknown.body)
  assert.deepEqual(await state(), before)
  assert.ok(await works('alice-key'))
})

test('a cross-site or tokenless revocation is a 403 that writes nothing', async () => {
  const alice = await as('alice')
  const adam = await as('adam')
  const before = await state()
  const forged = (csrf: string | null, headers: Record<string, string>) =>
    [csrf === null ? [] : [['csrf', csrf]], headers] as [Fields, Record<string, string>]
  for (const [who, path] of [
    [alice, `${KEYS}/${secretOf('alice-key').id}/revoke`],
    [adam, `${TOKENS}/${secretOf('bob-key').id}/revoke`],
    // A member's POST to the owners' list: the form is checked first, so the same 403.
    [alice, `${TOKENS}/${secretOf('alice-key').id}/revoke`],
  ] as const) {
    for (const [what, [fields, headers]] of [
      ['another origin', forged(who.csrf, { origin: 'https://evil.example' })],
      ['a cross-site fetch', forged(who.csrf, { 'sec-fetch-site': 'cross-site' })],
      ['no token', forged(null, { origin: who.origin })],
      ['a made-up token', forged('x'.repeat(43), { origin: who.origin })],
    ] as const) {
      const reply = await who.post(path, fields, headers)
      assert.equal(reply.status, 403, `${path}, ${what}`)
      assert.match(reply.body, /<h1>Form expired<\/h1>/, `${path}, ${what}`)
    }
  }
  assert.deepEqual(await state(), before)
  assert.ok((await works('alice-key')) && (await works('bob-key')))
})
