import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { createOAuthClient } from '../../src/oauth/oauth-clients.ts'
import { ALL_READ_SCOPES, importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import { appTokens } from '../harness/oauth-client-requests.ts'
import {
  confidentialApp,
  type ListeningTestApp,
  startListeningTestApp,
} from '../harness/oauth-flow.ts'
import { tableSnapshot } from '../harness/table-snapshot.ts'
import { allPages, client } from '../harness/test-app.ts'

// GET /v1/oauth-grants and POST /v1/oauth-grants/:id/revoke (oauth/oauth-grants.routes.ts): the
// apps people authorized, listed and revoked with `token:manage`. Consent itself, and what a
// revocation ends beyond the grant (keys and endpoints made through the app), are
// oauth-consent.test.ts's and access/credentials.test.ts's subjects.

const PASSWORD = 'correct horse battery staple'
const WEB_URI = 'https://app.example.test/cb'
const MANAGE = [...ALL_READ_SCOPES, 'token:manage']
const UNKNOWN = `grt_${'0'.repeat(26)}`

let t: ListeningTestApp
let ws: ImportResult
let second: { id: string; secret: string }
// Grants by name: person and app, with an access token of each.
const grants: Record<string, { id: string; token: string }> = {}
before(async () => {
  t = await startListeningTestApp({ OAUTH_SIGN_INS_PER_MINUTE: '100000' })
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  bundle.api_keys = [
    { key: 'olive-key', person: 'olive', scopes: MANAGE },
    { key: 'adam-key', person: 'adam', scopes: MANAGE },
    { key: 'alice-key', person: 'alice', scopes: MANAGE },
    { key: 'bob-key', person: 'bob', scopes: MANAGE },
    { key: 'alice-reader', person: 'alice', scopes: ALL_READ_SCOPES },
  ]
  ws = await importOk(t.db.db, bundle)
  const web = await confidentialApp(t.db.db, WEB_URI)
  const made = await createOAuthClient(t.db.db, {
    name: 'Second app',
    redirectUris: [WEB_URI],
    public: false,
    workspaceId: null,
  })
  second = { id: made.client_id, secret: made.client_secret as string }
  for (const [name, person, app, scope] of [
    ['alice-web', 'alice', web, 'project:read task:read'],
    ['alice-second', 'alice', second, 'project:read'],
    ['bob-web', 'bob', web, 'project:read'],
    ['adam-web', 'adam', web, 'project:read'],
  ] as const) {
    const user = { email: `${person}@example.test`, password: PASSWORD }
    const { tokens } = await appTokens(t.origin, app, { redirectUri: WEB_URI, scope, user })
    const grant = await t.db.db
      .selectFrom('oauth_artifacts')
      .select('grant_id')
      .where('model', '=', 'Grant')
      .where('account_id', '=', ws.ids[person] as string)
      .where('client_id', '=', app.id)
      .executeTakeFirstOrThrow()
    grants[name] = { id: grant.grant_id as string, token: tokens.access_token }
  }
})
after(() => t.close())

const as = (key: string) => client(t.app, tokenOf(ws, key))
const grant = (name: string) => grants[name] as { id: string; token: string }
const appStatus = async (name: string) =>
  (await client(t.app, grant(name).token).get('/v1/projects')).status
const listedIds = async (key: string, query = '') =>
  (await allPages(as(key), `/v1/oauth-grants${query}`, 1)).map((g) => g.id as string).sort()
const ids = (...names: string[]) => names.map((name) => grant(name).id).sort()

test('a person lists their own grants, newest first, with what they approved', async () => {
  const reply = await as('alice-key').get('/v1/oauth-grants')
  assert.equal(reply.status, 200, reply.body)
  assert.equal(reply.json.next_cursor, null)
  const listed = reply.json.data as Record<string, unknown>[]
  assert.deepEqual(listed.map((g) => g.id).sort(), ids('alice-web', 'alice-second'))
  const web = listed.find((g) => g.id === grant('alice-web').id)
  assert.deepEqual(Object.keys(web ?? {}).sort(), [
    'client_id',
    'client_name',
    'created_at',
    'expires_at',
    'id',
    'last_used_at',
    'person_id',
    'project_ids',
    'scopes',
    'status',
  ])
  assert.equal(web?.client_name, 'Web app')
  assert.equal(web?.person_id, ws.ids.alice)
  assert.deepEqual(web?.scopes, ['project:read', 'task:read'])
  assert.equal(web?.project_ids, null)
  assert.equal(web?.status, 'active')
  assert.ok(Date.parse(web?.expires_at as string) > Date.parse(web?.created_at as string))
  // Newest first, and by id among grants of the same second.
  const order = listed.map((g) => `${g.created_at} ${g.id}`)
  assert.deepEqual(order, [...order].sort().reverse())
  // Pages of one, and the client filter.
  assert.deepEqual(await listedIds('alice-key'), ids('alice-web', 'alice-second'))
  assert.deepEqual(await listedIds('alice-key', `?client_id=${second.id}`), ids('alice-second'))
})

test('owners and admins list every grant of the workspace; a member only their own', async () => {
  const all = ids('alice-web', 'alice-second', 'bob-web', 'adam-web')
  assert.deepEqual(await listedIds('olive-key'), all)
  assert.deepEqual(await listedIds('adam-key'), all)
  assert.deepEqual(await listedIds('bob-key'), ids('bob-web'))
})

test('listing needs token:manage, a token, and known filters', async () => {
  const reader = await as('alice-reader').get('/v1/oauth-grants')
  assert.equal(reader.status, 403)
  assert.equal(reader.json.code, 'insufficient_scope')
  assert.deepEqual(reader.json.required_scopes, ['token:manage'])
  const anonymous = await client(t.app).get('/v1/oauth-grants')
  assert.equal(anonymous.status, 401)
  const unknown = await as('olive-key').get(`/v1/oauth-grants?person_id=${ws.ids.alice}`)
  assert.equal(unknown.status, 422, unknown.body)
  const long = await as('olive-key').get(`/v1/oauth-grants?client_id=${'c'.repeat(201)}`)
  assert.equal(long.status, 422, long.body)
})

test('a grant the caller may not revoke is a 404 or 403 problem; nothing written', async () => {
  const before = await tableSnapshot(t.db.db)
  const path = `/v1/oauth-grants/${grant('alice-web').id}/revoke`
  for (const [what, reply, status, code] of [
    ["another member's grant", await as('bob-key').post(path), 404, 'not_found'],
    ['an unknown grant', await as('alice-key').post(`/v1/oauth-grants/${UNKNOWN}/revoke`), 404],
    [
      "a key's id",
      await as('alice-key').post(`/v1/oauth-grants/${ws.api_keys['alice-key']?.id}/revoke`),
      404,
    ],
    ['a key without token:manage', await as('alice-reader').post(path), 403, 'insufficient_scope'],
    ['no token', await client(t.app).post(path), 401],
  ] as const) {
    assert.equal(reply.status, status, `${what}: ${reply.body}`)
    assert.match(String(reply.headers['content-type']), /^application\/problem\+json/, what)
    if (code) assert.equal(reply.json.code, code, what)
  }
  assert.deepEqual(await tableSnapshot(t.db.db), before)
  assert.equal(await appStatus('alice-web'), 200)
})

test('a dry run answers as the revocation would and changes nothing', async () => {
  const before = await tableSnapshot(t.db.db)
  const dry = await as('alice-key').post(
    `/v1/oauth-grants/${grant('alice-web').id}/revoke?dry_run=true`,
  )
  assert.equal(dry.status, 200, dry.body)
  assert.equal(dry.json.dry_run, true)
  assert.equal(dry.json.result.id, grant('alice-web').id)
  assert.equal(dry.json.result.status, 'revoked')
  assert.deepEqual(await tableSnapshot(t.db.db), before)
  assert.equal(await appStatus('alice-web'), 200)
})

test('revoking: 200, the grant revoked, its tokens refused at once, audited', async () => {
  const { id } = grant('alice-second')
  const reply = await as('alice-key').post(`/v1/oauth-grants/${id}/revoke`, undefined, {
    'user-agent': 'grants-test/1',
  })
  assert.equal(reply.status, 200, reply.body)
  assert.equal(reply.json.id, id)
  assert.equal(reply.json.client_id, second.id)
  assert.equal(reply.json.client_name, 'Second app')
  assert.equal(reply.json.status, 'revoked')
  assert.equal(await appStatus('alice-second'), 401)
  assert.equal(await appStatus('alice-web'), 200, "the person's other app keeps working")
  assert.deepEqual(await listedIds('alice-key'), ids('alice-web'))
  const audit = await t.db.db
    .selectFrom('audit_log')
    .selectAll()
    .where('resource_id', '=', id)
    .where('action', '=', 'oauth_grant.revoked')
    .execute()
  assert.equal(audit.length, 1)
  assert.equal(audit[0]?.actor_id, ws.ids.alice)
  assert.equal(audit[0]?.token_id, ws.api_keys['alice-key']?.id)
  assert.equal(audit[0]?.via, 'api')
  assert.equal(audit[0]?.user_agent, 'grants-test/1')
  // It is gone: revoking it again is the 404 of an unknown grant.
  const again = await as('alice-key').post(`/v1/oauth-grants/${id}/revoke`)
  assert.equal(again.status, 404)
})

test("an owner revokes another person's grant", async () => {
  const reply = await as('olive-key').post(`/v1/oauth-grants/${grant('bob-web').id}/revoke`)
  assert.equal(reply.status, 200, reply.body)
  assert.equal(reply.json.person_id, ws.ids.bob)
  assert.equal(await appStatus('bob-web'), 401)
  assert.deepEqual(await listedIds('bob-key'), [])
})

test('the same Idempotency-Key replays the answer and revokes once', async () => {
  const path = `/v1/oauth-grants/${grant('adam-web').id}/revoke`
  const headers = { 'idempotency-key': 'revoke-adam-web-1' }
  const first = await as('adam-key').post(path, undefined, headers)
  assert.equal(first.status, 200, first.body)
  assert.equal(first.headers['idempotent-replayed'], undefined)
  const replay = await as('adam-key').post(path, undefined, headers)
  assert.equal(replay.status, 200, replay.body)
  assert.equal(replay.headers['idempotent-replayed'], 'true')
  assert.equal(replay.body, first.body)
  const audit = await t.db.db
    .selectFrom('audit_log')
    .select('id')
    .where('resource_id', '=', grant('adam-web').id)
    .where('action', '=', 'oauth_grant.revoked')
    .execute()
  assert.equal(audit.length, 1)
  assert.equal(await appStatus('adam-web'), 401)
})
