import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { hashSecret } from '../../src/access/secrets.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { Browser, formOn } from '../harness/browser.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { authorize, exchangeCode, refresh } from '../harness/oauth-client-requests.ts'
import {
  confidentialApp,
  type ListeningTestApp,
  startListeningTestApp,
  type UserAnswers,
} from '../harness/oauth-flow.ts'
import { allPages, client } from '../harness/test-app.ts'

// `project_picker=1` (docs/oauth.md, "Picking projects"): the person picks projects at consent,
// and every token of the grant, refreshed or not, over /v1 or MCP, is fenced to them.

const PASSWORD = 'correct horse battery staple'
const WEB_URI = 'https://app.example.test/cb'
const SCOPE = 'project:read task:read okr:read token:manage'

let t: ListeningTestApp
let ws: ImportResult
let web: { id: string; secret: string }
before(async () => {
  t = await startListeningTestApp({ OAUTH_SIGN_INS_PER_MINUTE: '100000' })
  const bundle = smallBundle()
  // Passwords are slow to hash on purpose: only those who sign in here get one.
  for (const person of bundle.people)
    if (['alice', 'bob', 'gus'].includes(person.key)) person.password = PASSWORD
  ws = await importOk(t.db.db, bundle)
  web = await confidentialApp(t.db.db, WEB_URI)
})
after(() => t.close())

const id = (key: string) => ws.ids[key] as string
const person = (name: string): UserAnswers => ({
  email: `${name}@example.test`,
  password: PASSWORD,
})

async function tokensFor(
  user: UserAnswers,
  options: { browser?: Browser; scope?: string; picker?: boolean } = {},
) {
  const authorized = await authorize(t.origin, {
    clientId: web.id,
    redirectUri: WEB_URI,
    scope: options.scope ?? SCOPE,
    user,
    ...(options.browser && { browser: options.browser }),
    params: { project_picker: options.picker === false ? undefined : '1' },
  })
  assert.ok(authorized.code, authorized.outcome.page.body)
  const reply = await exchangeCode(
    t.origin,
    {
      clientId: web.id,
      redirectUri: WEB_URI,
      code: authorized.code,
      verifier: authorized.verifier,
    },
    web,
  )
  assert.equal(reply.status, 200)
  return { ...reply.json, pagesSeen: authorized.outcome.pagesSeen }
}

const projectIds = async (token: string) =>
  (await allPages(client(t.app, token), '/v1/projects', 10)).map((p) => p.id).sort()

test('the consent page lists only the projects the person can open, as checkboxes', async () => {
  // Bob cannot open the secret project: the page never names it.
  const page = await consentPageOf(person('bob'))
  assert.match(page, new RegExp(`value="${id('open')}"`))
  assert.doesNotMatch(page, /Secret project/)
  assert.doesNotMatch(page, new RegExp(id('secret')))
  assert.match(page, /type="checkbox" name="project_ids"/)
})

// The consent page a person reaches, without answering it.
async function consentPageOf(user: UserAnswers): Promise<string> {
  const browser = new Browser(t.origin)
  const url = new URL('/oauth/authorize', t.origin)
  const params = {
    response_type: 'code',
    client_id: web.id,
    redirect_uri: WEB_URI,
    scope: SCOPE,
    state: 's',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    project_picker: '1',
  }
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  let page = await browser.get(url.href)
  for (let step = 0; step < 10; step++) {
    if (page.location) {
      page = await browser.get(page.location)
      continue
    }
    if (page.body.includes('name="password"')) {
      const form = formOn(page.body, '/login')
      page = await browser.post(form.action, { ...form.fields, ...user })
      continue
    }
    if (page.body.includes('/workspace"')) {
      const form = formOn(page.body, '/workspace')
      const choice = /name="choice"[^>]*value="([^"]+)"/.exec(page.body)?.[1] ?? ''
      page = await browser.post(form.action, { ...form.fields, choice })
      continue
    }
    return page.body
  }
  throw new Error('no consent page')
}

test('every token of a grant, refreshed too, opens only the projects picked, over /v1 and MCP', async () => {
  const alice = person('alice')
  assert.deepEqual(
    await projectIds(
      (await tokensFor(alice, { picker: false, scope: 'project:read' })).access_token,
    ),
    [id('open'), id('secret')].sort(),
    'without the picker, the whole of what Alice can open',
  )
  const tokens = await tokensFor({ ...alice, projects: [id('secret')] })
  assert.ok(tokens.pagesSeen.includes('consent'), 'the picker always shows the consent page')
  assert.deepEqual(await projectIds(tokens.access_token), [id('secret')])
  const api = client(t.app, tokens.access_token)
  assert.equal((await api.get(`/v1/resources/${id('t-open')}`)).status, 404)
  assert.equal((await api.get(`/v1/resources/${id('t-secret')}`)).status, 200)
  const fetched = await callToolInProcess(t.app, tokens.access_token, 'fetch', { id: id('t-open') })
  assert.equal(fetched.isError, true)
  const refreshed = await refresh(t.origin, web.id, tokens.refresh_token, web)
  assert.equal(refreshed.status, 200)
  assert.deepEqual(await projectIds(refreshed.json.access_token), [id('secret')])
  // A key made with the app's token is fenced as the grant is.
  const key = await client(t.app, refreshed.json.access_token).post('/v1/api-keys', {
    name: 'via app',
    scopes: ['project:read'],
  })
  assert.equal(key.status, 201, key.body)
  assert.deepEqual(key.json.project_ids, [id('secret')])
  // The person's list of apps shows the fence.
  const grants = await allPages(client(t.app, refreshed.json.access_token), '/v1/oauth-grants', 10)
  assert.ok(grants.some((grant) => grant.project_ids?.[0] === id('secret')))
})

test('approving with nothing picked, or a project the person cannot open, is refused and grants nothing', async () => {
  const nothing = await authorize(t.origin, {
    clientId: web.id,
    redirectUri: WEB_URI,
    scope: SCOPE,
    user: { ...person('bob'), projects: [] },
    params: { project_picker: '1' },
  })
  assert.equal(nothing.code, null)
  assert.equal(nothing.outcome.page.status, 400)
  assert.match(nothing.outcome.page.body, /Pick at least one/)
  const tampered = await authorize(t.origin, {
    clientId: web.id,
    redirectUri: WEB_URI,
    scope: SCOPE,
    user: { ...person('bob'), projects: [id('open'), id('secret')] },
    params: { project_picker: '1' },
  })
  assert.equal(tampered.code, null)
  assert.equal(tampered.outcome.page.status, 400)
  assert.doesNotMatch(tampered.outcome.page.body, /Secret project/)
})

test('a fenced grant stays fenced when remembered, and its choice is offered again, ticked, for new scopes', async () => {
  const browser = new Browser(t.origin)
  const gus = person('gus')
  gus.email = 'gus@partner.test'
  const first = await tokensFor(
    { ...gus, projects: [id('open')] },
    { browser, scope: 'project:read' },
  )
  assert.deepEqual(await projectIds(first.access_token), [id('open')])
  const remembered = await tokensFor(gus, { browser, scope: 'project:read', picker: false })
  assert.deepEqual(remembered.pagesSeen, [], 'consent remembered')
  assert.deepEqual(await projectIds(remembered.access_token), [id('open')])
  const wider = await tokensFor(
    { ...gus, projects: [id('open')] },
    { browser, scope: 'project:read task:read', picker: false },
  )
  assert.deepEqual(wider.pagesSeen, ['consent'])
  const tasks = await allPages(client(t.app, wider.access_token), '/v1/tasks', 10)
  assert.deepEqual(
    tasks.map((task) => task.id),
    [id('t-open')],
  )
})

test('a grant re-approved with fewer projects narrows what the app made with it', async () => {
  const browser = new Browser(t.origin)
  const alice = person('alice')
  const scope = 'project:read token:manage'
  const both = await tokensFor(
    { ...alice, projects: [id('open'), id('secret')] },
    { browser, scope },
  )
  const key = await client(t.app, both.access_token).post('/v1/api-keys', {
    name: 'made by the app',
    scopes: ['project:read'],
  })
  assert.equal(key.status, 201, key.body)
  assert.deepEqual(await projectIds(key.json.token), [id('open'), id('secret')].sort())
  // New scopes bring the remembered grant back to the consent page, where fewer are picked.
  const narrowed = await tokensFor(
    { ...alice, projects: [id('secret')] },
    { browser, scope: `${scope} task:read`, picker: false },
  )
  assert.deepEqual(narrowed.pagesSeen, ['consent'])
  assert.deepEqual(await projectIds(narrowed.access_token), [id('secret')])
  // The token tells what it is: the app's, of the grant, fenced to what was picked.
  const me = await client(t.app, narrowed.access_token).get('/v1/me')
  assert.equal(me.status, 200, me.body)
  assert.equal(me.json.actor.id, id('alice'))
  assert.equal(me.json.credential.type, 'oauth')
  assert.equal(me.json.credential.client_id, web.id)
  assert.deepEqual([me.json.credential.id], await grantIdsOf(narrowed.access_token))
  assert.deepEqual(me.json.credential.project_ids, [id('secret')])
  assert.deepEqual(await projectIds(both.access_token), [id('secret')], 'the same grant')
  assert.deepEqual(await projectIds(key.json.token), [id('secret')])
  // Picking more again widens the grant's own tokens, never what was made under the narrower one.
  const wide = await tokensFor(
    { ...alice, projects: [id('open'), id('secret')] },
    { browser, scope: `${scope} task:read okr:read`, picker: false },
  )
  assert.deepEqual(wide.pagesSeen, ['consent'])
  assert.deepEqual(await projectIds(wide.access_token), [id('open'), id('secret')].sort())
  assert.deepEqual(await projectIds(key.json.token), [id('secret')])
})

test("a browser comes back to the grant it approved, not to another of the person's grants", async () => {
  const alice = person('alice')
  const here = new Browser(t.origin)
  const mine = await tokensFor({ ...alice, projects: [id('open')] }, { browser: here })
  const elsewhere = await tokensFor({ ...alice, projects: [id('secret')] })
  // The other browser's grant expires last, as one approved a moment later does.
  await t.db.db
    .updateTable('oauth_artifacts')
    .set({ expires_at: new Date(Date.now() + 400 * 86_400_000) })
    .where('model', '=', 'Grant')
    .where('grant_id', 'in', [...(await grantIdsOf(elsewhere.access_token))])
    .execute()
  const again = await tokensFor({ ...alice }, { browser: here, picker: false })
  assert.deepEqual(again.pagesSeen, [], 'remembered consent')
  assert.deepEqual(await projectIds(again.access_token), [id('open')])
  assert.deepEqual(await projectIds(mine.access_token), [id('open')])
})

// The grant an access token belongs to, from the token's row.
async function grantIdsOf(accessToken: string): Promise<string[]> {
  const rows = await t.db.db
    .selectFrom('oauth_artifacts')
    .select('grant_id')
    .where('model', '=', 'AccessToken')
    .where('id_hash', '=', hashSecret(accessToken))
    .execute()
  return rows.flatMap((row) => (row.grant_id ? [row.grant_id] : []))
}
