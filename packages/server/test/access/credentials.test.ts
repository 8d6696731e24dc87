import assert from 'node:assert/strict'
import { after, before, beforeEach, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.ts'
import { Browser, formOn } from '../harness/browser.ts'
import {
  ALL_READ_SCOPES,
  ALL_WRITE_SCOPES,
  importOk,
  smallBundle,
  tokenOf,
} from '../harness/bundles.ts'
import { appTokens, authorize, refresh } from '../harness/oauth-client-requests.ts'
import {
  confidentialApp,
  type ListeningTestApp,
  startListeningTestApp,
} from '../harness/oauth-flow.ts'
import { type Receiver, reply, startReceiver } from '../harness/receiver.ts'
import { allPages, client } from '../harness/test-app.ts'

// What a credential may yield and how long what it made lives: keys and rotations never carry
// scopes their caller lacks; webhook endpoints and minted keys end with the credential behind them;
// an OAuth app bound to one workspace is never approved for a person of another.

const PASSWORD = 'correct horse battery staple'
const WEB_URI = 'https://app.example.test/cb'
const NATIVE_URI = 'http://127.0.0.1:9999/callback'
const EVERYTHING = [...ALL_READ_SCOPES, ...ALL_WRITE_SCOPES, 'webhook:manage', 'token:manage']

let t: ListeningTestApp
let ws: ImportResult
let zeta: ImportResult
let web: { id: string; secret: string }
let receiver: Receiver
let dispatcher: WebhookDispatcher
const as = (token: string) => client(t.app, token)
const alice = () => as(tokenOf(ws, 'alice-full'))

before(async () => {
  t = await startListeningTestApp({
    WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true',
    OAUTH_SIGN_INS_PER_MINUTE: '100000',
  })
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  bundle.api_keys = [
    { key: 'alice-full', person: 'alice', scopes: EVERYTHING },
    // The owner's key covers every key of the workspace, so it sees them all.
    { key: 'olive-key', person: 'olive', scopes: [...EVERYTHING, 'audit:read'] },
  ]
  ws = await importOk(t.db.db, bundle)
  zeta = await importOk(t.db.db, {
    format: 'workgraph.bundle/v1',
    workspace: { key: 'z', name: 'Zeta corp' },
    people: [
      { key: 'zed', name: 'Zed', email: 'zed@zeta.test', role: 'owner', password: PASSWORD },
    ],
    oauth_clients: [{ key: 'zeta', name: 'Zeta tool', redirect_uris: [NATIVE_URI], public: true }],
  })
  web = await confidentialApp(t.db.db, WEB_URI)
  receiver = await startReceiver()
  // The receiver answers at once: the default timeout, so a loaded machine fails no delivery.
  dispatcher = new WebhookDispatcher(t.deps, { random: () => 0.5 })
})
after(async () => {
  await dispatcher.stop(0)
  await receiver.close()
  await t.close()
})
beforeEach(() => {
  receiver.received.length = 0
  receiver.fallback = reply(200, {}, 'ok')
})

// An app's tokens for alice, with the scopes she approves.
async function appTokensOfAlice(scope: string): Promise<{ access: string; refresh: string }> {
  const user = { email: 'alice@example.test', password: PASSWORD }
  const { tokens } = await appTokens(t.origin, web, { redirectUri: WEB_URI, scope, user })
  return { access: tokens.access_token, refresh: tokens.refresh_token }
}

async function newKey(creator: string, scopes: string[], name = 'made in a test') {
  const created = await as(creator).post('/v1/api-keys', { name, scopes })
  assert.equal(created.status, 201, created.body)
  return created.json as { id: string; token: string }
}

async function tokenRecord(id: string) {
  const all = await allPages(as(tokenOf(ws, 'olive-key')), '/v1/tokens', 100)
  return all.find((token) => token.id === id)
}

async function endpointOf(id: string) {
  return t.db.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}

async function register(token: string) {
  const created = await as(token).post('/v1/webhooks', {
    url: receiver.url,
    events: ['task.created'],
  })
  assert.equal(created.status, 201, created.body)
  return created.json.id as string
}

async function createTask(token = tokenOf(ws, 'alice-full')) {
  const created = await as(token).post('/v1/tasks', { title: 'Ship it', project_id: ws.ids.open })
  assert.equal(created.status, 201, created.body)
}

async function counts() {
  const [tokens, audit] = await Promise.all([
    t.db.db
      .selectFrom('tokens')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
    t.db.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { tokens: Number(tokens.n), audit: Number(audit.n) }
}

test('rotating or creating a key needs a credential that covers it; refused, nothing changes', async () => {
  const full = (await allPages(alice(), '/v1/tokens?type=api_key', 100)).find(
    (token) => token.owner_id === ws.ids.alice && token.scopes.includes('webhook:manage'),
  )
  assert.ok(full)
  const manageOnly = await newKey(tokenOf(ws, 'alice-full'), ['token:manage'])
  const app = await appTokensOfAlice('token:manage')
  const before = await counts()
  const unknown = await as(manageOnly.token).post(
    '/v1/api-keys/key_zzzzzzzzzzzzzzzzzzzzzzzzzz/rotate',
    { overlap_seconds: 0 },
  )
  for (const caller of [manageOnly.token, app.access]) {
    // A wider key is as unknown to a narrower credential as a key that does not exist.
    const rotated = await as(caller).post(`/v1/api-keys/${full.id}/rotate`, { overlap_seconds: 0 })
    assert.equal(rotated.status, 404, rotated.body)
    assert.deepEqual({ ...rotated.json, request_id: null }, { ...unknown.json, request_id: null })
    assert.equal(rotated.json.token, undefined)
    const listed = await allPages(as(caller), '/v1/tokens', 100)
    assert.ok(!listed.some((token) => token.id === full.id))
    const created = await as(caller).post('/v1/api-keys', { name: 'x', scopes: ['task:read'] })
    assert.equal(created.status, 403, created.body)
    assert.equal(created.json.code, 'insufficient_scope')
    assert.deepEqual(created.json.required_scopes, ['task:read'])
  }
  assert.deepEqual(await counts(), before)
  assert.equal((await tokenRecord(full.id))?.status, 'active')
  assert.equal((await alice().get('/v1/projects')).status, 200)
  // Holding every scope of the key is enough: a key rotates itself.
  const self = await as(manageOnly.token).post(`/v1/api-keys/${manageOnly.id}/rotate`)
  assert.equal(self.status, 200, self.body)
})

test('an endpoint is bound to the key that made it: rotation moves it, revocation disables it and skips what waits', async () => {
  const key = await newKey(tokenOf(ws, 'alice-full'), EVERYTHING)
  const endpoint = await register(key.token)
  await createTask()
  await dispatcher.drain()
  assert.equal(receiver.received.length, 1)

  const rotated = await as(key.token).post(`/v1/api-keys/${key.id}/rotate`, { overlap_seconds: 0 })
  assert.equal(rotated.status, 200, rotated.body)
  assert.equal((await endpointOf(endpoint)).credential_id, rotated.json.id)
  await createTask()
  await dispatcher.drain()
  assert.equal(receiver.received.length, 2, 'the rotated key still feeds the endpoint')

  receiver.fallback = reply(503)
  await createTask()
  await dispatcher.drain()
  const retrying = `/v1/webhooks/${endpoint}/deliveries?status=retrying`
  const [waiting] = (await as(rotated.json.token).get(retrying)).json.data
  assert.equal(waiting?.status, 'retrying')

  const revoked = await alice().post(`/v1/tokens/${rotated.json.id}/revoke`)
  assert.equal(revoked.status, 200, revoked.body)
  const disabled = await endpointOf(endpoint)
  assert.equal(disabled.status, 'disabled')
  assert.equal(disabled.disabled_reason, 'credential_revoked')
  const fetched = await alice().get(`/v1/webhooks/${endpoint}`)
  assert.equal(fetched.json.disabled_reason, 'credential_revoked')
  const deliveries = (await alice().get(`/v1/webhooks/${endpoint}/deliveries`)).json.data
  assert.equal(deliveries.find((row: { id: string }) => row.id === waiting.id).status, 'skipped')

  receiver.fallback = reply(200)
  const sent = receiver.received.length
  t.clock.advance(3_600_000)
  await createTask()
  await dispatcher.drain()
  assert.equal(receiver.received.length, sent, 'nothing more is sent')
  // Its owner may bind it to a credential of theirs that works, by enabling it again.
  const enabled = await alice().patch(`/v1/webhooks/${endpoint}`, { status: 'active' })
  assert.equal(enabled.status, 200, enabled.body)
  assert.equal(enabled.json.disabled_reason, null)
  await createTask()
  await dispatcher.drain()
  assert.equal(receiver.received.length, sent + 1)
  await alice().delete(`/v1/webhooks/${endpoint}`)
})

test("an app's endpoints and the keys it made, and keys made with those, end with its grant", async () => {
  const app = await appTokensOfAlice('webhook:manage task:read token:manage')
  const endpoint = await register(app.access)
  const minted = await newKey(app.access, ['task:read', 'token:manage'])
  const grandchild = await newKey(minted.token, ['task:read'])
  const rotated = await as(minted.token).post(`/v1/api-keys/${minted.id}/rotate`, {
    overlap_seconds: 600,
  })
  assert.equal(rotated.status, 200, rotated.body)
  for (const token of [minted.token, grandchild.token, rotated.json.token])
    assert.equal((await as(token).get('/v1/tasks')).status, 200)

  const grants = await allPages(alice(), '/v1/oauth-grants', 100)
  const grant = grants.find((row) => row.client_id === web.id)
  assert.ok(grant)
  const revoked = await alice().post(`/v1/oauth-grants/${grant.id}/revoke`)
  assert.equal(revoked.status, 200, revoked.body)

  for (const token of [minted.token, grandchild.token, rotated.json.token])
    assert.equal((await as(token).get('/v1/tasks')).status, 401)
  for (const id of [minted.id, grandchild.id, rotated.json.id])
    assert.equal((await tokenRecord(id))?.status, 'revoked')
  const disabled = await endpointOf(endpoint)
  assert.equal(disabled.status, 'disabled')
  assert.equal(disabled.disabled_reason, 'credential_revoked')
  await createTask()
  await dispatcher.drain()
  assert.equal(receiver.received.length, 0)
})

test('a grant the authorization server ends (a replayed refresh token) or that expires ends what it made', async () => {
  for (const end of ['replayed refresh token', 'expiry'] as const) {
    const app = await appTokensOfAlice('webhook:manage task:read token:manage')
    const endpoint = await register(app.access)
    const minted = await newKey(app.access, ['task:read'])
    await createTask()
    await dispatcher.drain()
    assert.equal(receiver.received.length, 1, end)
    receiver.received.length = 0
    if (end === 'replayed refresh token') {
      // A confidential client authenticates; replaying a spent token revokes the whole grant.
      const first = await refresh(t.origin, web.id, app.refresh, web)
      assert.equal(first.status, 200)
      const replay = await refresh(t.origin, web.id, app.refresh, web)
      assert.equal(replay.status, 400)
    } else {
      await t.db.db
        .updateTable('oauth_artifacts')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('model', '=', 'Grant')
        .where('client_id', '=', web.id)
        .execute()
    }
    assert.equal((await as(minted.token).get('/v1/tasks')).status, 401, end)
    assert.equal((await tokenRecord(minted.id))?.status, 'revoked', end)
    await createTask()
    await dispatcher.drain()
    assert.equal(receiver.received.length, 0, end)
    const disabled = await endpointOf(endpoint)
    assert.equal(disabled.status, 'disabled', end)
    assert.equal(disabled.disabled_reason, 'credential_revoked', end)
    await t.db.db.deleteFrom('oauth_artifacts').where('client_id', '=', web.id).execute()
  }
})

test('consent for an app bound to one workspace cannot be posted for a person of another', async () => {
  const zetaClient = zeta.oauth_clients.zeta?.client_id as string
  const browser = new Browser(t.origin)
  // Alice signs in for a server-wide app: the browser now has her session.
  const first = await authorize(t.origin, {
    clientId: web.id,
    redirectUri: WEB_URI,
    scope: 'project:read',
    user: { email: 'alice@example.test', password: PASSWORD },
    browser,
  })
  assert.ok(first.code)
  // The Zeta tool asks her browser for consent; the page asks her to sign in, but a forged POST
  // to the consent step tries to approve it with her session.
  const start = await authorize(t.origin, {
    clientId: zetaClient,
    redirectUri: NATIVE_URI,
    scope: 'project:read',
    user: { email: 'nobody@example.test', password: 'wrong' },
    browser,
  })
  assert.equal(start.code, null)
  const page = start.outcome.page
  const form = formOn(page.body, '/login')
  const confirm = form.action.replace(/\/login$/, '/confirm')
  let answer = await browser.post(confirm, { ...form.fields, decision: 'approve' })
  for (let hop = 0; answer.location?.startsWith(t.origin) && hop < 5; hop++)
    answer = await browser.get(answer.location)
  assert.ok(!answer.location?.includes('code='), `no code may be issued: ${answer.location}`)
  const grants = await t.db.db
    .selectFrom('oauth_artifacts')
    .select('account_id')
    .where('model', '=', 'Grant')
    .where('client_id', '=', zetaClient)
    .execute()
  assert.deepEqual(grants, [])
})
