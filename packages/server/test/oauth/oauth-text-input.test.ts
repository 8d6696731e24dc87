import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { Browser, formOn, type Page } from '../harness/browser.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { authorizationUrl, pkcePair, postForm } from '../harness/oauth-client-requests.ts'
import { type ListeningTestApp, startListeningTestApp } from '../harness/oauth-flow.ts'

// NUL (and, in JSON, unpaired surrogates) sent to the authorization server and its pages: never a
// 5xx. The pages answer with the dashboard's HTML error page; the provider's endpoints in OAuth's
// own format.

const PASSWORD = 'correct horse battery staple'
const NATIVE_URI = 'http://127.0.0.1:9999/callback'
const NUL = '\u0000'

let t: ListeningTestApp
let native: string
let web: { id: string; secret: string }
before(async () => {
  t = await startListeningTestApp({
    OAUTH_SIGN_INS_PER_MINUTE: '100000',
    OAUTH_DYNAMIC_REGISTRATION: 'true',
  })
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  bundle.oauth_clients = [
    { key: 'native', name: 'Native app', redirect_uris: [NATIVE_URI], public: true },
    { key: 'web', name: 'Web app', redirect_uris: ['https://app.example.test/cb'], public: false },
  ]
  const ws = await importOk(t.db.db, bundle)
  native = ws.oauth_clients.native?.client_id as string
  const webClient = ws.oauth_clients.web as { client_id: string; client_secret: string }
  web = { id: webClient.client_id, secret: webClient.client_secret }
})
after(() => t.close())

const authorizeParams = () => ({
  response_type: 'code',
  client_id: native,
  redirect_uri: NATIVE_URI,
  scope: 'project:read',
  code_challenge: pkcePair().challenge,
  code_challenge_method: 'S256',
  state: 'st',
})

/** A browser on the sign-in page of a fresh authorization. */
async function onSignInPage(): Promise<{ browser: Browser; page: Page }> {
  const browser = new Browser(t.origin)
  let page = await browser.get(authorizationUrl(t.origin, authorizeParams()))
  while (page.location?.startsWith(t.origin)) page = await browser.get(page.location)
  assert.equal(page.status, 200, page.body)
  return { browser, page }
}

// The pages' answer to text no page accepts: the dashboard's "Bad request" page, with the
// status of the one rule on text (http/storable-text.hook.ts).
function assertErrorPage(page: Page, what: string) {
  assert.equal(page.status, 422, `${what}: ${page.status} ${page.body.slice(0, 200)}`)
  assert.match(String(page.headers.get('content-type')), /^text\/html/, what)
  assert.match(page.body, /<h1>Bad request<\/h1>/, what)
}

test('a NUL in a field of the sign-in form, or in the page address, is the Bad request page', async () => {
  for (const field of ['email', 'password', 'csrf']) {
    const { browser, page } = await onSignInPage()
    const form = formOn(page.body, '/login')
    const fields: Record<string, string> = {
      ...form.fields,
      email: 'alice@example.test',
      password: PASSWORD,
    }
    const answer = await browser.post(form.action, { ...fields, [field]: `${fields[field]}${NUL}` })
    assertErrorPage(answer, `login with NUL in ${field}`)
  }
  const { browser, page } = await onSignInPage()
  const action = formOn(page.body, '/login').action
  assertErrorPage(await browser.get(`${action.replace(/\/login$/, '')}%00`), 'page uid with NUL')
  assertErrorPage(await browser.get(`${action.replace(/\/login$/, '')}?x=%00`), 'query with NUL')
})

test('a NUL in any authorization parameter is never a 5xx', async () => {
  for (const name of ['client_id', 'redirect_uri', 'state', 'scope', 'login_hint', 'nonce']) {
    const params: Record<string, string> = authorizeParams()
    params[name] = `${params[name] ?? 'x'}${NUL}`
    const page = await new Browser(t.origin).get(authorizationUrl(t.origin, params))
    assert.ok(page.status < 500, `${name}: ${page.status} ${page.body.slice(0, 200)}`)
  }
})

test('a NUL in a client id, code, token or redirect URI at the token and revocation endpoints is an OAuth 4xx', async () => {
  const forms: [string, Record<string, string>, { id: string; secret: string }?][] = [
    ['/oauth/token', { grant_type: 'authorization_code', client_id: `${native}${NUL}`, code: 'c' }],
    ['/oauth/token', { grant_type: 'authorization_code', client_id: native, code: `c${NUL}` }],
    [
      '/oauth/token',
      {
        grant_type: 'authorization_code',
        client_id: native,
        code: 'c',
        redirect_uri: `${NATIVE_URI}${NUL}`,
        code_verifier: `v${NUL}`,
      },
    ],
    ['/oauth/token', { grant_type: 'refresh_token', client_id: native, refresh_token: `r${NUL}` }],
    [
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: 'r' },
      { id: `${web.id}${NUL}`, secret: web.secret },
    ],
    [
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: 'r' },
      { id: web.id, secret: `${web.secret}${NUL}` },
    ],
    ['/oauth/revoke', { token: `t${NUL}`, client_id: `${native}${NUL}` }],
    [
      '/oauth/revoke',
      { token: `t${NUL}`, token_type_hint: `refresh_token${NUL}`, client_id: native },
    ],
  ]
  for (const [path, form, basic] of forms) {
    const reply = await postForm(t.origin, path, form, basic)
    const what = `${path} ${JSON.stringify(form)}: ${reply.status} ${JSON.stringify(reply.json)}`
    assert.ok(reply.status < 500, what)
    if (reply.status >= 400) assert.equal(typeof reply.json?.error, 'string', what)
  }
})

test('a client registering with a NUL or an unpaired surrogate in its metadata is refused with a 400', async () => {
  for (const bad of [NUL, '\ud800']) {
    for (const metadata of [
      { client_name: `App${bad}`, redirect_uris: ['https://app.example.test/cb'] },
      { client_name: 'App', redirect_uris: [`https://app.example.test/cb${bad}`] },
    ]) {
      const response = await fetch(`${t.origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(metadata),
      })
      const body = (await response.json()) as { error?: unknown }
      const what = `${JSON.stringify(metadata)}: ${response.status} ${JSON.stringify(body)}`
      assert.equal(response.status, 400, what)
      assert.equal(typeof body.error, 'string', what)
    }
  }
  const count = await t.db.db
    .selectFrom('oauth_clients')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  assert.equal(Number(count.n), 2)
})
