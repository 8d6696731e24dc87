import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import * as oauth from 'openid-client'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { Browser } from '../harness/browser.ts'
import { importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import {
  type ListeningTestApp,
  runBrowserFlow,
  startListeningTestApp,
} from '../harness/oauth-flow.ts'
import { allPages, client } from '../harness/test-app.ts'

const PASSWORD = 'correct horse battery staple'
const REDIRECT_URI = 'http://127.0.0.1:9999/callback'

let t: ListeningTestApp
let ws: ImportResult
before(async () => {
  t = await startListeningTestApp()
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  bundle.api_keys = [{ key: 'alice-key', person: 'alice', scopes: ['project:read'] }]
  bundle.oauth_clients = [
    { key: 'planner', name: 'Planner app', redirect_uris: [REDIRECT_URI], public: true },
  ]
  ws = await importOk(t.db.db, bundle)
})
after(() => t.close())

/** openid-client configured as the planner app would be, by discovery. */
async function discover(clientId: string) {
  return oauth.discovery(new URL(t.origin), clientId, undefined, oauth.None(), {
    execute: [oauth.allowInsecureRequests],
    algorithm: 'oauth2',
  })
}

test('an app gets a token for a user with openid-client: discovery, PKCE, sign-in, consent, refresh, reuse detection', async () => {
  const clientId = ws.oauth_clients.planner?.client_id as string
  const config = await discover(clientId)
  const metadata = config.serverMetadata()
  assert.equal(metadata.issuer, t.origin)
  assert.deepEqual(metadata.code_challenge_methods_supported, ['S256'])
  assert.deepEqual(metadata.response_types_supported, ['code'])

  const verifier = oauth.randomPKCECodeVerifier()
  const state = oauth.randomState()
  const authorizationUrl = oauth.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'project:read task:read',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  })
  const browser = new Browser(t.origin)
  const flow = await runBrowserFlow(browser, authorizationUrl.href, {
    email: 'alice@example.test',
    password: PASSWORD,
  })
  assert.deepEqual(flow.pagesSeen, ['sign-in', 'consent'])
  assert.ok(flow.callback?.startsWith(REDIRECT_URI), flow.page.body)
  const callback = new URL(flow.callback as string)
  assert.equal(
    callback.searchParams.get('iss'),
    t.origin,
    'RFC 9207: the response names its issuer',
  )

  const tokens = await oauth.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  })
  assert.match(tokens.access_token, /^wg_at_/)
  assert.match(tokens.refresh_token ?? '', /^wg_rt_/)
  assert.equal(tokens.expires_in, 3600)
  assert.equal(tokens.scope, 'project:read task:read')

  const response = await oauth.fetchProtectedResource(
    config,
    tokens.access_token,
    new URL(`${t.origin}/v1/projects?limit=100`),
    'GET',
  )
  assert.equal(response.status, 200)
  const viaOAuth = ((await response.json()) as { data: { id: string }[] }).data
    .map((p) => p.id)
    .sort()
  const viaKey = (await allPages(client(t.app, tokenOf(ws, 'alice-key')), '/v1/projects', 100))
    .map((p) => p.id)
    .sort()
  assert.deepEqual(viaOAuth, viaKey, 'the token sees exactly what alice may open')

  const first = tokens.refresh_token as string
  const second = await oauth.refreshTokenGrant(config, first)
  const third = await oauth.refreshTokenGrant(config, second.refresh_token as string)
  assert.notEqual(second.refresh_token, first)
  assert.notEqual(third.refresh_token, second.refresh_token)
  assert.equal((await client(t.app, third.access_token).get('/v1/projects')).status, 200)

  await assert.rejects(
    oauth.refreshTokenGrant(config, first),
    (error: { error?: string }) => error.error === 'invalid_grant',
  )
  // Reuse of a spent refresh token revokes the whole grant: the newest tokens die too.
  await assert.rejects(
    oauth.refreshTokenGrant(config, third.refresh_token as string),
    (error: { error?: string }) => error.error === 'invalid_grant',
  )
  for (const accessToken of [tokens.access_token, second.access_token, third.access_token]) {
    const reply = await client(t.app, accessToken).get('/v1/projects')
    assert.equal(reply.status, 401)
    assert.match(
      String(reply.headers['www-authenticate']),
      /resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"/,
    )
  }
})

test('OpenID Connect is not claimed: no openid in the metadata, no discovery document, openid refused', async () => {
  const clientId = ws.oauth_clients.planner?.client_id as string
  // The RFC 8414 document names no OpenID scope, claim or ID token algorithm.
  const metadata = (await discover(clientId)).serverMetadata()
  assert.ok(metadata.scopes_supported?.includes('project:read'))
  assert.ok(!metadata.scopes_supported?.includes('openid'))
  for (const field of [
    'claims_supported',
    'id_token_signing_alg_values_supported',
    'subject_types_supported',
    'userinfo_endpoint',
  ])
    assert.equal(metadata[field], undefined, field)
  // A client that looks for an OpenID Provider finds none.
  const oidc = await fetch(new URL('/.well-known/openid-configuration', t.origin))
  assert.equal(oidc.status, 404)
  await assert.rejects(
    oauth.discovery(new URL(t.origin), clientId, undefined, oauth.None(), {
      execute: [oauth.allowInsecureRequests],
      algorithm: 'oidc',
    }),
  )
  // Asking for openid anyway comes back to the app as invalid_scope, before anyone signs in.
  const config = await discover(clientId)
  const verifier = oauth.randomPKCECodeVerifier()
  const state = oauth.randomState()
  const authorizationUrl = oauth.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid project:read',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  })
  const flow = await runBrowserFlow(new Browser(t.origin), authorizationUrl.href, {
    email: 'alice@example.test',
    password: PASSWORD,
  })
  assert.deepEqual(flow.pagesSeen, [])
  await assert.rejects(
    oauth.authorizationCodeGrant(config, new URL(flow.callback as string), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    }),
    (error: { error?: string; error_description?: string }) =>
      error.error === 'invalid_scope' && /issues no ID tokens/.test(error.error_description ?? ''),
  )
})
