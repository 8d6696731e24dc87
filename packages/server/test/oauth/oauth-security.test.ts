import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { Browser, formOn } from '../harness/browser.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import {
  authorizationUrl,
  authorize,
  exchangeCode,
  pkcePair,
  postForm,
  refresh,
} from '../harness/oauth-client-requests.ts'
import { type ListeningTestApp, startListeningTestApp } from '../harness/oauth-flow.ts'
import { client } from '../harness/test-app.ts'

// The security checklist of an OAuth server with PKCE (docs/oauth.md), item by item.

const PASSWORD = 'correct horse battery staple'
const NATIVE_URI = 'http://127.0.0.1:9999/callback'
const WEB_URI = 'https://app.example.test/cb'
const OTHER_URI = 'http://127.0.0.1:9998/cb'
const alice = { email: 'alice@example.test', password: PASSWORD }

let t: ListeningTestApp
let ws: ImportResult
let native: string
let web: { id: string; secret: string }
let other: string
before(async () => {
  // Every sign-in here comes from one address; the limit has a test of its own.
  t = await startListeningTestApp({ OAUTH_SIGN_INS_PER_MINUTE: '100000' })
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  bundle.oauth_clients = [
    { key: 'native', name: 'Native app', redirect_uris: [NATIVE_URI], public: true },
    { key: 'web', name: 'Web app', redirect_uris: [WEB_URI], public: false },
    { key: 'other', name: 'Other app', redirect_uris: [OTHER_URI], public: true },
  ]
  ws = await importOk(t.db.db, bundle)
  native = ws.oauth_clients.native?.client_id as string
  const webClient = ws.oauth_clients.web as { client_id: string; client_secret: string }
  web = { id: webClient.client_id, secret: webClient.client_secret }
  other = ws.oauth_clients.other?.client_id as string
})
after(() => t.close())

/** Alice authorizes the native app for `project:read` in a new browser. */
function aliceAuthorizesNative(params?: Record<string, string | undefined>) {
  return authorize(t.origin, {
    clientId: native,
    redirectUri: NATIVE_URI,
    scope: 'project:read',
    user: alice,
    ...(params ? { params } : {}),
  })
}

async function tokensFor(clientId = native, redirectUri = NATIVE_URI, scope = 'project:read') {
  const { code, verifier } = await authorize(t.origin, {
    clientId,
    redirectUri,
    scope,
    user: alice,
  })
  assert.ok(code)
  const reply = await exchangeCode(t.origin, { clientId, redirectUri, code, verifier })
  assert.equal(reply.status, 200, JSON.stringify(reply.json))
  return reply.json as { access_token: string; refresh_token: string; expires_in: number }
}

const apiStatus = async (token: string) => (await client(t.app, token).get('/v1/projects')).status

test('1. no code without PKCE, and never with the plain method', async () => {
  const base = {
    response_type: 'code',
    client_id: native,
    redirect_uri: NATIVE_URI,
    scope: 'project:read',
    state: 's',
  }
  for (const params of [
    base,
    { ...base, code_challenge: pkcePair().verifier, code_challenge_method: 'plain' },
  ]) {
    const page = await new Browser(t.origin).get(authorizationUrl(t.origin, params))
    assert.equal(page.status, 303)
    const redirect = new URL(page.location as string)
    assert.equal(redirect.origin + redirect.pathname, NATIVE_URI)
    assert.equal(redirect.searchParams.get('error'), 'invalid_request')
    assert.equal(redirect.searchParams.get('code'), null)
    assert.equal(redirect.searchParams.get('iss'), t.origin)
  }
})

test('2. a wrong or missing code_verifier gets no token', async () => {
  const { code, verifier } = await aliceAuthorizesNative()
  assert.ok(code)
  const wrong = await exchangeCode(t.origin, {
    clientId: native,
    redirectUri: NATIVE_URI,
    code,
    verifier: pkcePair().verifier,
  })
  assert.equal(wrong.status, 400)
  assert.equal(wrong.json.error, 'invalid_grant')
  const missing = await exchangeCode(t.origin, { clientId: native, redirectUri: NATIVE_URI, code })
  assert.equal(missing.status, 400)
  assert.ok(['invalid_grant', 'invalid_request'].includes(missing.json.error), missing.json.error)
  // A failed verification does not spend the code (oidc-provider's behaviour, documented).
  const right = await exchangeCode(t.origin, {
    clientId: native,
    redirectUri: NATIVE_URI,
    code,
    verifier,
  })
  assert.equal(right.status, 200)
})

test('3. a redirect URI that is not byte-identical gets an error page and never a redirect', async () => {
  const variants = [
    'https://app.example.test/cb/../evil',
    'https://app.example.test/cb?x=1',
    'https://app.example.test/CB',
    'https://app.example.test/cb/',
    'https://evil.example.test/cb',
    'http://app.example.test/cb',
  ]
  for (const redirectUri of variants) {
    const page = await new Browser(t.origin).get(
      authorizationUrl(t.origin, {
        response_type: 'code',
        client_id: web.id,
        redirect_uri: redirectUri,
        scope: 'project:read',
        state: 's',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      }),
    )
    assert.equal(page.status, 400, redirectUri)
    assert.equal(page.location, null, redirectUri)
    assert.match(page.headers.get('content-type') ?? '', /text\/html/)
    assert.match(page.body, /redirect_uri/)
  }
  // Native apps may use any port on their loopback redirect (RFC 8252 §7.3); web apps may not.
  const otherPort = await authorize(t.origin, {
    clientId: native,
    redirectUri: 'http://127.0.0.1:45678/callback',
    scope: 'project:read',
    user: alice,
  })
  assert.ok(otherPort.callback?.href.startsWith('http://127.0.0.1:45678/callback?'))
  // At the token endpoint the redirect URI must be the one the code was issued for.
  const { code, verifier } = await aliceAuthorizesNative()
  const mismatch = await exchangeCode(t.origin, {
    clientId: native,
    redirectUri: 'http://127.0.0.1:9999/other',
    code: code as string,
    verifier,
  })
  assert.equal(mismatch.status, 400)
  assert.equal(mismatch.json.error, 'invalid_grant')
})

test('4. a code is single-use: a replay is refused and revokes what the code issued', async () => {
  const { code, verifier } = await aliceAuthorizesNative()
  const input = { clientId: native, redirectUri: NATIVE_URI, code: code as string, verifier }
  const first = await exchangeCode(t.origin, input)
  assert.equal(first.status, 200)
  assert.equal(await apiStatus(first.json.access_token), 200)
  const replay = await exchangeCode(t.origin, input)
  assert.equal(replay.status, 400)
  assert.equal(replay.json.error, 'invalid_grant')
  assert.equal(await apiStatus(first.json.access_token), 401)
  assert.equal(
    (await refresh(t.origin, native, first.json.refresh_token)).json.error,
    'invalid_grant',
  )
})

test('5. three parallel exchanges of one code, and of one refresh token: at most one succeeds', async () => {
  const { code, verifier } = await aliceAuthorizesNative()
  const input = { clientId: native, redirectUri: NATIVE_URI, code: code as string, verifier }
  const exchanges = await Promise.all([1, 2, 3].map(() => exchangeCode(t.origin, input)))
  assert.deepEqual(exchanges.map((reply) => reply.status).sort(), [200, 400, 400])

  const tokens = await tokensFor()
  const refreshes = await Promise.all(
    [1, 2, 3].map(() => refresh(t.origin, native, tokens.refresh_token)),
  )
  assert.ok(refreshes.filter((reply) => reply.status === 200).length <= 1)
  for (const reply of refreshes) {
    if (reply.status !== 200) assert.equal(reply.json.error, 'invalid_grant')
  }
})

test('6. a refresh rotates the refresh token; an old one kills the newest tokens', async () => {
  const tokens = await tokensFor()
  const next = await refresh(t.origin, native, tokens.refresh_token)
  assert.equal(next.status, 200)
  assert.notEqual(next.json.refresh_token, tokens.refresh_token)
  const reuse = await refresh(t.origin, native, tokens.refresh_token)
  assert.equal(reuse.json.error, 'invalid_grant')
  assert.equal(
    (await refresh(t.origin, native, next.json.refresh_token)).json.error,
    'invalid_grant',
  )
  assert.equal(await apiStatus(next.json.access_token), 401)
})

test('7. access tokens live an hour; expired and made-up tokens get 401 with a challenge', async () => {
  const tokens = await tokensFor()
  assert.equal(tokens.expires_in, 3600)
  const forged = `wg_at_${'A'.repeat(38)}`
  for (const token of [forged, 'wg_at_short']) {
    const reply = await client(t.app, token).get('/v1/projects')
    assert.equal(reply.status, 401)
    assert.equal(reply.json.code, 'invalid_token')
    assert.match(
      String(reply.headers['www-authenticate']),
      /^Bearer realm="workgraph", resource_metadata="/,
    )
  }
  // The service clock of the test stood still since the app started; move it past the hour.
  const step = Date.now() - t.clock.now().getTime() + 3601 * 1000
  t.clock.advance(step)
  try {
    const expired = await client(t.app, tokens.access_token).get('/v1/projects')
    assert.equal(expired.status, 401)
    assert.equal(expired.json.code, 'token_expired')
  } finally {
    t.clock.advance(-step)
  }
})

test('8. a token carries only what was approved: other scopes are 403, unknown scopes refused', async () => {
  const tokens = await tokensFor(native, NATIVE_URI, 'project:read')
  const people = await client(t.app, tokens.access_token).get('/v1/people')
  assert.equal(people.status, 403)
  assert.equal(people.json.code, 'insufficient_scope')
  assert.deepEqual(people.json.required_scopes, ['people:read'])

  const unknown = await authorize(t.origin, {
    clientId: native,
    redirectUri: NATIVE_URI,
    scope: 'project:read admin:all',
    user: alice,
  })
  assert.equal(unknown.code, null)
  assert.equal(unknown.callback?.searchParams.get('error'), 'invalid_scope')
  assert.deepEqual(unknown.outcome.pagesSeen, [], 'refused before anyone signs in')
})

test('9. a resource other than this API is refused', async () => {
  const foreign = await aliceAuthorizesNative({ resource: 'https://other-api.example.test' })
  assert.equal(foreign.code, null)
  assert.equal(foreign.callback?.searchParams.get('error'), 'invalid_target')
})

test('10. a code belongs to its client; a confidential client cannot skip its secret', async () => {
  const { code, verifier } = await aliceAuthorizesNative()
  const stolen = await exchangeCode(t.origin, {
    clientId: other,
    redirectUri: NATIVE_URI,
    code: code as string,
    verifier,
  })
  assert.equal(stolen.status, 400)
  assert.equal(stolen.json.error, 'invalid_grant')

  // The confidential web app signs in its user, then tries the token endpoint without a secret.
  const webCode = await authorize(t.origin, {
    clientId: web.id,
    redirectUri: WEB_URI,
    scope: 'project:read',
    user: alice,
  })
  assert.ok(webCode.code)
  const noSecret = await exchangeCode(t.origin, {
    clientId: web.id,
    redirectUri: WEB_URI,
    code: webCode.code,
    verifier: webCode.verifier,
  })
  assert.equal(noSecret.status, 401, JSON.stringify(noSecret))
  assert.equal(noSecret.json.error, 'invalid_client')
  const wrongSecret = await exchangeCode(
    t.origin,
    { clientId: web.id, redirectUri: WEB_URI, code: webCode.code, verifier: webCode.verifier },
    // The last character changed to another one: `x` on its own failed whenever it was an `x`.
    { id: web.id, secret: `${web.secret.slice(0, -1)}${web.secret.endsWith('x') ? 'y' : 'x'}` },
  )
  assert.equal(wrongSecret.json.error, 'invalid_client', JSON.stringify(wrongSecret))
  const withSecret = await exchangeCode(
    t.origin,
    { clientId: web.id, redirectUri: WEB_URI, code: webCode.code, verifier: webCode.verifier },
    web,
  )
  assert.equal(withSecret.status, 200, JSON.stringify(withSecret.json))
})

test('11. revocation (RFC 7009): a refresh token takes its grant along; others are untouched', async () => {
  const tokens = await tokensFor()
  const byOther = await postForm(t.origin, '/oauth/revoke', {
    token: tokens.refresh_token,
    client_id: other,
  })
  assert.equal(byOther.status, 200)
  assert.equal(
    await apiStatus(tokens.access_token),
    200,
    "another client cannot revoke the app's token",
  )

  const unknown = await postForm(t.origin, '/oauth/revoke', {
    token: 'nonsense',
    client_id: native,
  })
  assert.equal(unknown.status, 200)

  // Revoking an access token ends the tokens issued with it too (RFC 7009 §2.1 allows it); the
  // consent itself stays (oauth-consent.test.ts).
  const accessOnly = await tokensFor()
  await postForm(t.origin, '/oauth/revoke', { token: accessOnly.access_token, client_id: native })
  assert.equal(await apiStatus(accessOnly.access_token), 401)
  assert.equal(
    (await refresh(t.origin, native, accessOnly.refresh_token)).json.error,
    'invalid_grant',
  )

  const revoked = await postForm(t.origin, '/oauth/revoke', {
    token: tokens.refresh_token,
    token_type_hint: 'refresh_token',
    client_id: native,
  })
  assert.equal(revoked.status, 200)
  assert.equal(await apiStatus(tokens.access_token), 401)
  assert.equal((await refresh(t.origin, native, tokens.refresh_token)).json.error, 'invalid_grant')
})

test('12. consent is CSRF-protected and cannot be framed; deny returns access_denied with state and iss', async () => {
  const browser = new Browser(t.origin)
  const { challenge } = pkcePair()
  const start = authorizationUrl(t.origin, {
    response_type: 'code',
    client_id: other,
    redirect_uri: OTHER_URI,
    scope: 'task:read',
    state: 'keep-me',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })
  let page = await browser.get(start)
  page = await browser.get(page.location as string)
  assert.equal(page.headers.get('x-frame-options'), 'DENY')
  assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/)
  const login = formOn(page.body, '/login')
  page = await browser.post(login.action, { ...login.fields, ...alice })
  while (page.location?.startsWith(t.origin)) page = await browser.get(page.location)
  const consent = formOn(page.body, '/confirm')
  assert.match(page.body, /task:read<\/code>: Read and search the tasks you can open/)

  const withoutToken = await browser.post(consent.action, { decision: 'approve' })
  assert.equal(withoutToken.status, 403)
  const forgedToken = await browser.post(consent.action, {
    csrf: 'x'.repeat(43),
    decision: 'approve',
  })
  assert.equal(forgedToken.status, 403)
  const crossSite = await browser.post(
    consent.action,
    { ...consent.fields, decision: 'approve' },
    { origin: 'https://evil.example.test' },
  )
  assert.equal(crossSite.status, 403)
  // Another browser (the attacker's page cannot send this one's SameSite cookies) gets nowhere.
  const elsewhere = await new Browser(t.origin).post(consent.action, {
    ...consent.fields,
    decision: 'approve',
  })
  assert.equal(elsewhere.status, 400)

  page = await browser.post(consent.action, { ...consent.fields, decision: 'deny' })
  while (page.location?.startsWith(t.origin)) page = await browser.get(page.location)
  const denied = new URL(page.location as string)
  assert.equal(denied.searchParams.get('error'), 'access_denied')
  assert.equal(denied.searchParams.get('state'), 'keep-me')
  assert.equal(denied.searchParams.get('iss'), t.origin)
  assert.equal(denied.searchParams.get('code'), null)
})

test('13. metadata advertises the code flow, S256 only, and only endpoints that are routed', async () => {
  const response = await fetch(`${t.origin}/.well-known/oauth-authorization-server`)
  assert.equal(response.status, 200)
  const metadata = (await response.json()) as Record<string, unknown>
  assert.equal(metadata.issuer, t.origin)
  assert.deepEqual(metadata.response_types_supported, ['code'])
  assert.deepEqual(metadata.code_challenge_methods_supported, ['S256'])
  assert.deepEqual(metadata.grant_types_supported, ['authorization_code', 'refresh_token'])
  assert.equal(metadata.authorization_response_iss_parameter_supported, true)
  assert.equal(metadata.registration_endpoint, undefined, 'registration is off by default')
  for (const [name, value] of Object.entries(metadata)) {
    if (!name.endsWith('_endpoint') && name !== 'jwks_uri') continue
    const method = name === 'jwks_uri' || name === 'authorization_endpoint' ? 'GET' : 'POST'
    const probe = await fetch(String(value), { method })
    assert.notEqual(probe.status, 404, `${name} ${value} is advertised but not routed`)
  }
  assert.equal((await fetch(`${t.origin}/oauth/register`, { method: 'POST' })).status, 404)
  const resource = await fetch(`${t.origin}/.well-known/oauth-protected-resource`)
  const prm = (await resource.json()) as Record<string, unknown>
  assert.equal(prm.resource, t.origin)
  assert.deepEqual(prm.authorization_servers, [t.origin])
  const unauthenticated = await client(t.app).get('/v1/projects')
  assert.match(
    String(unauthenticated.headers['www-authenticate']),
    new RegExp(`resource_metadata="${t.origin}/.well-known/oauth-protected-resource"`),
  )
})

test('14. tokens outlive the browser session at the authorization server', async () => {
  const tokens = await tokensFor()
  await t.db.db.deleteFrom('oauth_artifacts').where('model', '=', 'Session').execute()
  assert.equal(await apiStatus(tokens.access_token), 200)
  const next = await refresh(t.origin, native, tokens.refresh_token)
  assert.equal(next.status, 200)
  assert.equal(await apiStatus(next.json.access_token), 200)
})

test('16. token responses are not cached, and only hashes of codes and tokens are stored', async () => {
  const { code, verifier } = await aliceAuthorizesNative()
  const reply = await exchangeCode(t.origin, {
    clientId: native,
    redirectUri: NATIVE_URI,
    code: code as string,
    verifier,
  })
  assert.equal(reply.headers.get('cache-control'), 'no-store')
  const secrets = [code as string, reply.json.access_token, reply.json.refresh_token]
  const stored = await sql<{
    text: string
  }>`select id_hash::text || payload::text as text from oauth_artifacts`.execute(t.db.db)
  for (const secret of secrets) {
    assert.ok(!stored.rows.some((row) => row.text.includes(secret)), 'no secret stored as such')
    const hash = createHash('sha256').update(secret).digest()
    const found = await t.db.db
      .selectFrom('oauth_artifacts')
      .select('model')
      .where('id_hash', '=', hash)
      .executeTakeFirst()
    assert.ok(found, 'stored under its hash')
  }
})
