import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import {
  type IdentityProvider,
  startIdentityProvider,
} from '../../../../examples/identity-provider/identity-provider.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { loadConfig } from '../../src/config.ts'
import { createOAuthClient } from '../../src/oauth/oauth-clients.ts'
import { interactionCsrfToken, signInCsrfToken } from '../../src/web/csrf.ts'
import { choiceValue } from '../../src/web/workspace-choice.ts'
import { Browser } from '../harness/browser.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { authorizationUrl, pkcePair } from '../harness/oauth-client-requests.ts'
import { type ListeningTestApp, startListeningTestApp } from '../harness/oauth-flow.ts'
import { contentState } from '../harness/row-counts.ts'
import { openFormPage, postFormAs } from '../harness/signed-out-browser.ts'
import { mainText, signIn } from '../harness/web-visitor.ts'

// PASSWORD_SIGN_IN=false (web/sign-in.routes.ts, web/join.routes.ts and the OAuth sign-in step):
// both sign-in pages and the join page offer only the identity provider, and a password posted by
// hand, right as it is, signs no one in and is not even counted.

const PASSWORD = 'a long test passphrase'
let idp: IdentityProvider
let t: ListeningTestApp
let ws: ImportResult

before(async () => {
  idp = await startIdentityProvider()
  t = await startListeningTestApp(idp.env({ PASSWORD_SIGN_IN: 'false' }))
  idp.register(`${t.origin}/sign-in/sso/callback`)
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  ws = await importOk(t.db.db, bundle)
})
after(async () => {
  await t?.close()
  await idp?.close()
})

// What a refused password must leave alone: sessions, people, and the attempt budgets.
const state = () => contentState(t.db.db, ['web_sessions', 'people', 'rate_limit_windows'])

test('the setting needs a provider, and is read as a boolean', () => {
  assert.throws(() => loadConfig({ PASSWORD_SIGN_IN: 'false' }), /needs SSO_ISSUER/)
  assert.throws(() => loadConfig({ ...idp.env(), PASSWORD_SIGN_IN: 'perhaps' }), /true or false/)
  assert.throws(() => loadConfig({ SSO_ISSUER: 'http://idp.example' }), /https URL/)
  assert.throws(() => loadConfig({ SSO_ISSUER: 'https://idp.example' }), /SSO_CLIENT_ID/)
  assert.throws(() => loadConfig({ SSO_CLIENT_ID: 'x' }), /need SSO_ISSUER/)
  const config = loadConfig({ SSO_ISSUER: 'https://idp.example/tenant', SSO_CLIENT_ID: 'x' })
  assert.deepEqual(config.sso, {
    issuer: 'https://idp.example/tenant',
    clientId: 'x',
    clientSecret: undefined,
    name: 'idp.example',
  })
  assert.equal(config.passwordSignIn, true)
})

test('the sign-in page shows only the provider, and a posted password is refused', async () => {
  const browser = await openFormPage(t, '/sign-in?return_to=%2Fteams')
  const { body } = browser.page
  assert.match(body, /href="\/sign-in\/sso\?return_to(=|&#61;)%2Fteams"[^>]*>Sign in with Test IdP/)
  assert.doesNotMatch(body, /name="password"/)
  assert.doesNotMatch(body, /<form/)
  // The form of a page with passwords, posted by hand with the right password and a good token.
  const preSession = browser.cookie.split('=')[1] as string
  const signedIn = {
    cookie: browser.cookie,
    csrf: signInCsrfToken(t.deps.webKeys.csrfKey, preSession),
  }
  const before = await state()
  const posted = await postFormAs(t, signedIn, '/sign-in', [
    ['email', 'alice@example.test'],
    ['password', PASSWORD],
    ['return_to', '/'],
  ])
  assert.equal(posted.status, 403)
  assert.match(mainText(posted.body), /Signing in with a password is turned off/)
  assert.doesNotMatch(String(posted.headers['set-cookie'] ?? ''), /workgraph_session=/)
  // A choice of workspace proves a password check: it is refused too, even well signed.
  const choice = choiceValue(
    t.deps.webKeys.csrfKey,
    preSession,
    { personId: ws.ids.alice as string, workspaceId: ws.workspace_id },
    t.clock.now(),
  )
  const chosen = await postFormAs(t, signedIn, '/sign-in/workspace', [
    ['choice', choice],
    ['return_to', '/'],
  ])
  assert.equal(chosen.status, 403)
  assert.deepEqual(await state(), before)
})

test("an app's sign-in page shows only the provider, and its password form is refused", async () => {
  const app = await createOAuthClient(t.db.db, {
    name: 'Planner app',
    redirectUris: ['http://127.0.0.1:9/callback'],
    public: true,
    workspaceId: null,
  })
  const browser = new Browser(t.origin)
  let page = await browser.get(
    authorizationUrl(t.origin, {
      response_type: 'code',
      client_id: app.client_id,
      redirect_uri: 'http://127.0.0.1:9/callback',
      scope: 'project:read',
      state: 's',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    }),
  )
  while (page.location?.startsWith(t.origin)) page = await browser.get(page.location)
  assert.match(page.body, /href="\/oauth\/interaction\/[^"]+\/sso"[^>]*>Sign in with Test IdP/)
  assert.doesNotMatch(page.body, /name="password"/)
  const uid = /\/oauth\/interaction\/([^/"]+)\/sso/.exec(page.body)?.[1] as string
  const csrf = interactionCsrfToken(t.deps.webKeys.csrfKey, uid)
  const before = await state()
  const login = await browser.post(`/oauth/interaction/${uid}/login`, {
    csrf,
    email: 'alice@example.test',
    password: PASSWORD,
  })
  assert.equal(login.status, 403)
  assert.match(mainText(login.body), /Signing in with a password is turned off/)
  const choice = choiceValue(
    t.deps.webKeys.csrfKey,
    uid,
    { personId: ws.ids.alice as string, workspaceId: ws.workspace_id },
    t.clock.now(),
  )
  const chosen = await browser.post(`/oauth/interaction/${uid}/workspace`, { csrf, choice })
  assert.equal(chosen.status, 403)
  assert.deepEqual(await state(), before)
})

test('the join page offers only the provider, and a posted password joins no one', async () => {
  const olive = await signIn(t, { workspaceId: ws.workspace_id, personId: ws.ids.olive as string })
  const invited = await olive.submit('/people/invitations', [
    ['form_key', 'k-off-1'],
    ['email', 'nina@example.test'],
    ['role', 'member'],
  ])
  assert.equal(invited.status, 201)
  const link = new URL(/<code id="secret"[^>]*>([^<]+)</.exec(invited.body)?.[1] as string)
  const browser = await openFormPage(t, link.pathname)
  assert.match(browser.page.body, /href="\/sign-in\/sso"[^>]*>Join with Test IdP/)
  assert.doesNotMatch(browser.page.body, /name="password"/)
  const preSession = browser.cookie.split('=')[1] as string
  const csrf = signInCsrfToken(t.deps.webKeys.csrfKey, preSession)
  const before = await state()
  const posted = await postFormAs(t, { cookie: browser.cookie, csrf }, link.pathname, [
    ['name', 'Nina'],
    ['password', 'a brand new passphrase'],
  ])
  assert.equal(posted.status, 403)
  assert.deepEqual(await state(), before)
})
