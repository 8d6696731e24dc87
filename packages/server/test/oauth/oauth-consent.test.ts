import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import * as oauth from 'openid-client'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { Browser, formOn } from '../harness/browser.ts'
import { importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import { appTokens, authorize, exchangeCode, refresh } from '../harness/oauth-client-requests.ts'
import {
  confidentialApp,
  type ListeningTestApp,
  startListeningTestApp,
} from '../harness/oauth-flow.ts'
import { allPages, client } from '../harness/test-app.ts'

// Remembered consent and its revocation, workspaces at sign-in, the audit trail of an app, the
// sign-in limit, and dynamic registration.

const PASSWORD = 'correct horse battery staple'
const WEB_URI = 'https://app.example.test/cb'
const NATIVE_URI = 'http://127.0.0.1:9999/callback'
const alice = { email: 'alice@example.test', password: PASSWORD }

let t: ListeningTestApp
let ws: ImportResult
let second: ImportResult
let web: { id: string; secret: string }
before(async () => {
  t = await startListeningTestApp({ OAUTH_SIGN_INS_PER_MINUTE: '100000' })
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  bundle.api_keys = [
    {
      key: 'olive-key',
      person: 'olive',
      scopes: ['token:manage', 'audit:read', 'task:read', 'project:read'],
    },
    { key: 'bob-key', person: 'bob', scopes: ['token:manage'] },
  ]
  bundle.oauth_clients = [
    { key: 'native', name: 'Native app', redirect_uris: [NATIVE_URI], public: true },
  ]
  ws = await importOk(t.db.db, bundle)
  web = await confidentialApp(t.db.db, WEB_URI)
  // Alice is also a person of a second workspace, with the same email and password.
  second = await importOk(t.db.db, {
    format: 'workgraph.bundle/v1',
    workspace: { key: 'w2', name: 'Zeta corp' },
    people: [
      {
        key: 'alice',
        name: 'Alice Z',
        email: 'alice@example.test',
        role: 'owner',
        password: PASSWORD,
      },
    ],
    oauth_clients: [{ key: 'zeta', name: 'Zeta tool', redirect_uris: [NATIVE_URI], public: true }],
  })
})
after(() => t.close())

function webTokens(browser: Browser, scope: string, workspace = 'Test workspace') {
  return appTokens(t.origin, web, {
    redirectUri: WEB_URI,
    scope,
    user: { ...alice, workspace },
    browser,
  })
}

test('one email in two workspaces chooses the workspace; the token acts in the one chosen', async () => {
  const { tokens, pagesSeen } = await webTokens(
    new Browser(t.origin),
    'workspace:read',
    'Zeta corp',
  )
  assert.deepEqual(pagesSeen, ['sign-in', 'workspace', 'consent'])
  const workspace = await client(t.app, tokens.access_token).get('/v1/workspace')
  assert.equal(workspace.json.id, second.workspace_id)
})

test('consent is remembered per person and app, asked again for new scopes, and always for native apps', async () => {
  const browser = new Browser(t.origin)
  assert.deepEqual((await webTokens(browser, 'project:read')).pagesSeen, [
    'sign-in',
    'workspace',
    'consent',
  ])
  assert.deepEqual(
    (await webTokens(browser, 'project:read')).pagesSeen,
    [],
    'same browser: no page',
  )
  const elsewhere = await webTokens(new Browser(t.origin), 'project:read')
  assert.deepEqual(elsewhere.pagesSeen, ['sign-in', 'workspace'], 'another browser: sign-in only')
  const wider = await webTokens(browser, 'project:read task:read')
  assert.deepEqual(wider.pagesSeen, ['consent'])
  assert.equal(wider.tokens.scope, 'project:read task:read')
  // A native app's identity cannot be verified (RFC 8252 §8.6): consent is asked every time.
  for (let i = 0; i < 2; i++) {
    const native = await authorize(t.origin, {
      clientId: ws.oauth_clients.native?.client_id as string,
      redirectUri: NATIVE_URI,
      scope: 'project:read',
      user: { ...alice, workspace: 'Test workspace' },
      browser,
    })
    assert.ok(native.outcome.pagesSeen.includes('consent'))
  }
})

test('people list and revoke their apps; revoking ends every token at once and asks consent again', async () => {
  const browser = new Browser(t.origin)
  const { tokens } = await webTokens(browser, 'project:read token:manage')
  const mine = await allPages(client(t.app, tokens.access_token), '/v1/oauth-grants', 1)
  const grant = mine.find((g) => g.client_id === web.id)
  assert.ok(grant)
  assert.equal(grant.client_name, 'Web app')
  assert.equal(grant.person_id, ws.ids.alice)
  assert.deepEqual(grant.scopes, ['project:read', 'task:read', 'token:manage'])
  assert.ok(grant.last_used_at)
  assert.ok(mine.every((g) => g.person_id === ws.ids.alice))

  const bob = client(t.app, tokenOf(ws, 'bob-key'))
  assert.deepEqual((await bob.get('/v1/oauth-grants')).json.data, [])
  const notBobs = await bob.post(`/v1/oauth-grants/${grant.id}/revoke`)
  assert.equal(notBobs.status, 404)
  const owner = client(t.app, tokenOf(ws, 'olive-key'))
  assert.ok((await allPages(owner, '/v1/oauth-grants', 20)).some((g) => g.id === grant.id))
  // An owner's key that does not cover the grant (it lacks project:read) neither sees it nor
  // revokes it (docs/permissions.md, "What a credential reaches").
  const narrow = await owner.post('/v1/api-keys', { name: 'narrow', scopes: ['token:manage'] })
  assert.equal(narrow.status, 201, narrow.body)
  const narrowOwner = client(t.app, narrow.json.token)
  assert.ok(!(await allPages(narrowOwner, '/v1/oauth-grants', 20)).some((g) => g.id === grant.id))
  assert.equal((await narrowOwner.post(`/v1/oauth-grants/${grant.id}/revoke`)).status, 404)

  const revoked = await client(t.app, tokens.access_token).post(
    `/v1/oauth-grants/${grant.id}/revoke`,
  )
  assert.equal(revoked.status, 200)
  assert.equal(revoked.json.status, 'revoked')
  assert.equal((await client(t.app, tokens.access_token).get('/v1/projects')).status, 401)
  const refreshed = await exchangeRefresh(tokens.refresh_token)
  assert.equal(refreshed.json.error, 'invalid_grant')
  assert.deepEqual((await webTokens(browser, 'project:read')).pagesSeen, ['consent'])

  const audit = await allPages(owner, `/v1/audit?resource_id=${grant.id}`, 20)
  // One approval per consent page the grant went through (three in this file), then the revocation.
  const actions = audit.map((entry) => entry.action)
  assert.equal(actions.filter((action) => action === 'oauth_grant.revoked').length, 1)
  assert.equal(actions.filter((action) => action === 'oauth_grant.approved').length, 3)
})

function exchangeRefresh(refreshToken: string) {
  return refresh(t.origin, web.id, refreshToken, web)
}

test("writes through an app are audited with the app's client id and grant", async () => {
  const { tokens } = await webTokens(new Browser(t.origin), 'task:write task:read')
  const created = await client(t.app, tokens.access_token).post('/v1/tasks', {
    title: 'Made by the app',
    project_id: ws.ids.open,
  })
  assert.equal(created.status, 201, created.body)
  const entries = await allPages(
    client(t.app, tokenOf(ws, 'olive-key')),
    `/v1/audit?resource_id=${created.json.id}`,
    20,
  )
  assert.equal(entries.length, 1)
  assert.equal(entries[0].token_kind, 'oauth')
  assert.equal(entries[0].client_id, web.id)
  assert.match(entries[0].token_id, /^grt_/)
  assert.equal(entries[0].actor_id, ws.ids.alice)
})

test("an app registered in one workspace can be authorized only by that workspace's people", async () => {
  const zeta = second.oauth_clients.zeta?.client_id as string
  const bob = await authorize(t.origin, {
    clientId: zeta,
    redirectUri: NATIVE_URI,
    scope: 'project:read',
    user: { email: 'bob@example.test', password: PASSWORD },
  })
  assert.equal(bob.code, null)
  assert.equal(bob.outcome.page.status, 401)
  // Alice signs in with the same email and password and lands in Zeta corp without a choice.
  const aliceZ = await authorize(t.origin, {
    clientId: zeta,
    redirectUri: NATIVE_URI,
    scope: 'workspace:read',
    user: alice,
  })
  assert.deepEqual(aliceZ.outcome.pagesSeen, ['sign-in', 'consent'])
  const reply = await exchangeCode(t.origin, {
    clientId: zeta,
    redirectUri: NATIVE_URI,
    code: aliceZ.code as string,
    verifier: aliceZ.verifier,
  })
  const workspace = await client(t.app, reply.json.access_token).get('/v1/workspace')
  assert.equal(workspace.json.id, second.workspace_id)
})

test('sign-in: one answer for a wrong password and an unknown email, and a limit per minute', async () => {
  const limited = await startListeningTestApp({ OAUTH_SIGN_INS_PER_MINUTE: '3' })
  try {
    const bundle = smallBundle()
    for (const person of bundle.people) person.password = PASSWORD
    bundle.oauth_clients = [
      { key: 'native', name: 'Native app', redirect_uris: [NATIVE_URI], public: true },
    ]
    const imported = await importOk(limited.db.db, bundle)
    const browser = new Browser(limited.origin)
    const start = await authorize(limited.origin, {
      clientId: imported.oauth_clients.native?.client_id as string,
      redirectUri: NATIVE_URI,
      scope: 'project:read',
      user: { email: 'alice@example.test', password: 'wrong password!' },
      browser,
    })
    const failed = start.outcome.page
    assert.equal(failed.status, 401)
    const form = formOn(failed.body, '/login')
    const unknown = await browser.post(form.action, {
      ...form.fields,
      email: 'nobody@example.test',
      password: 'wrong password!',
    })
    assert.equal(unknown.status, 401)
    const message = (body: string) => /role="alert">([^<]+)</.exec(body)?.[1]
    assert.equal(message(unknown.body), message(failed.body))
    const third = await browser.post(form.action, { ...form.fields, ...alice })
    assert.equal(third.status, 303, 'the third attempt of the minute is still allowed')
    const fourth = await browser.post(form.action, { ...form.fields, ...alice })
    assert.equal(fourth.status, 429)
    assert.equal(fourth.headers.get('retry-after'), '60')
  } finally {
    await limited.close()
  }
})

test('dynamic registration is off by default, and when enabled an agent registers and signs in', async () => {
  const open = await startListeningTestApp({
    OAUTH_DYNAMIC_REGISTRATION: 'true',
    OAUTH_REGISTRATION_TOKEN: 'let-me-register',
  })
  try {
    const bundle = smallBundle()
    for (const person of bundle.people) person.password = PASSWORD
    await importOk(open.db.db, bundle)
    const options = { execute: [oauth.allowInsecureRequests], algorithm: 'oauth2' as const }
    const metadata = {
      redirect_uris: [NATIVE_URI],
      token_endpoint_auth_method: 'none',
      client_name: 'Agent',
    }
    await assert.rejects(
      oauth.dynamicClientRegistration(new URL(open.origin), metadata, oauth.None(), options),
    )
    const config = await oauth.dynamicClientRegistration(
      new URL(open.origin),
      metadata,
      oauth.None(),
      { ...options, initialAccessToken: 'let-me-register' },
    )
    const clientId = config.clientMetadata().client_id
    assert.match(clientId, /^cli_/)
    const authorized = await authorize(open.origin, {
      clientId,
      redirectUri: NATIVE_URI,
      scope: 'project:read',
      user: alice,
    })
    assert.ok(authorized.code, authorized.outcome.page.body)
    const tokens = await oauth.authorizationCodeGrant(config, authorized.callback as URL, {
      pkceCodeVerifier: authorized.verifier,
      expectedState: 'state-1',
    })
    assert.equal((await client(open.app, tokens.access_token).get('/v1/projects')).status, 200)
  } finally {
    await open.close()
  }
})
