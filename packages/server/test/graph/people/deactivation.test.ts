import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { fanOutEvents } from '../../../src/webhooks/fan-out.ts'
import { importOk, tokenOf } from '../../harness/bundles.ts'
import { appTokens } from '../../harness/oauth-client-requests.ts'
import {
  confidentialApp,
  type ListeningTestApp,
  startListeningTestApp,
} from '../../harness/oauth-flow.ts'
import { PEOPLE_PASSWORD, peopleBundle } from '../../harness/people-bundle.ts'
import { signInWithForm } from '../../harness/signed-out-browser.ts'
import { client } from '../../harness/test-app.ts'
import { signIn, type Visitor } from '../../harness/web-visitor.ts'

const REDIRECT = 'https://app.example.test/cb'

let t: ListeningTestApp
let ws: ImportResult
let app: { id: string; secret: string }
const id = (key: string) => ws.ids[key] as string
const as = (key: string) => client(t.app, tokenOf(ws, key))
const bearer = (token: string) => client(t.app, token)

before(async () => {
  t = await startListeningTestApp({ OAUTH_SIGN_INS_PER_MINUTE: '100000' })
  ws = await importOk(t.db.db, peopleBundle())
  app = await confidentialApp(t.db.db, REDIRECT)
})
after(() => t.close())

// Everything one person holds: a key, an app's token, a dashboard session, and an endpoint bound
// to each of the three (made with the key, with the app's token, and on the dashboard).
async function credentialsOf(person: string, email: string) {
  const key = tokenOf(ws, `${person}-key`)
  const { tokens } = await appTokens(t.origin, app, {
    redirectUri: REDIRECT,
    scope: 'project:read task:read webhook:manage',
    user: { email, password: PEOPLE_PASSWORD },
  })
  const oauth = tokens.access_token as string
  const visitor = await signIn(t, { workspaceId: ws.workspace_id, personId: id(person) })
  const endpoints: string[] = []
  for (const [token, url] of [
    [key, `https://hooks.example.test/${person}-key`],
    [oauth, `https://hooks.example.test/${person}-app`],
  ] as const) {
    const made = await bearer(token).post('/v1/webhooks', { url, events: ['task.created'] })
    assert.equal(made.status, 201, made.body)
    endpoints.push(made.json.id)
  }
  const page = await visitor.submit('/webhooks', [
    ['url', `https://hooks.example.test/${person}-web`],
    ['events', 'task.created'],
  ])
  assert.equal(page.status, 201, page.body)
  const web = await t.db.db
    .selectFrom('webhook_endpoints')
    .select(['id', 'credential_id'])
    .where('url', '=', `https://hooks.example.test/${person}-web`)
    .executeTakeFirstOrThrow()
  assert.equal(web.credential_id, id(person), 'a dashboard endpoint is bound to its person')
  endpoints.push(web.id)
  return { key, oauth, visitor, endpoints }
}

async function works(held: { key: string; oauth: string; visitor: Visitor }) {
  return {
    key: (await bearer(held.key).get('/v1/me')).status,
    oauth: (await bearer(held.oauth).get('/v1/projects')).status,
    session: (await held.visitor.get('/')).status,
  }
}

const endpointStates = (ids: string[]) =>
  t.db.db
    .selectFrom('webhook_endpoints')
    .select(['id', 'status', 'disabled_reason'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute()

const deactivatedAt = async (person: string) =>
  (
    await t.db.db
      .selectFrom('people')
      .select('deactivated_at')
      .where('id', '=', id(person))
      .executeTakeFirstOrThrow()
  ).deactivated_at

test('deactivating a person ends every credential and session they had, at once', async () => {
  const held = await credentialsOf('bob', 'bob@example.test')
  assert.deepEqual(await works(held), { key: 200, oauth: 200, session: 200 })
  // Something Bob wrote, and deliveries waiting for his endpoints.
  const task = await bearer(held.key).post('/v1/tasks', {
    title: 'Bob was here',
    project_id: id('open'),
  })
  assert.equal(task.status, 201, task.body)
  await fanOutEvents(t.deps)
  const waiting = await t.db.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'status'])
    .where('endpoint_id', 'in', held.endpoints)
    .execute()
  assert.equal(waiting.length, 3)
  assert.ok(waiting.every((delivery) => delivery.status === 'pending'))

  const reply = await as('adam-key').post(`/v1/people/${id('bob')}/deactivate`)
  assert.equal(reply.status, 200, reply.body)
  assert.equal(reply.json.deactivated, true)

  assert.equal((await bearer(held.key).get('/v1/me')).status, 401)
  assert.equal((await bearer(held.oauth).get('/v1/projects')).status, 401)
  const page = await held.visitor.get('/')
  assert.equal(page.status, 303)
  assert.match(String(page.headers.location), /^\/sign-in/)
  assert.deepEqual(
    (await endpointStates(held.endpoints)).map((e) => [e.status, e.disabled_reason]),
    held.endpoints.map(() => ['disabled', 'credential_revoked']),
  )
  const skipped = await t.db.db
    .selectFrom('webhook_deliveries')
    .select('status')
    .where('endpoint_id', 'in', held.endpoints)
    .execute()
  assert.ok(
    skipped.every((delivery) => delivery.status === 'skipped'),
    JSON.stringify(skipped),
  )
  const keys = await t.db.db
    .selectFrom('tokens')
    .select('revoked_at')
    .where('person_id', '=', id('bob'))
    .execute()
  assert.ok(keys.length > 0 && keys.every((key) => key.revoked_at !== null))
  assert.equal(
    (
      await t.db.db
        .selectFrom('oauth_artifacts')
        .select('id_hash')
        .where('account_id', '=', id('bob'))
        .execute()
    ).length,
    0,
  )
  // A deactivated person cannot sign in, on the dashboard or at an app's sign-in.
  const signInReply = await signInWithForm(t, 'bob@example.test', PEOPLE_PASSWORD)
  assert.equal(signInReply.status, 401)
  // What Bob wrote stays, attributed; he stays in the directory, marked.
  const read = await as('alice-key').get(`/v1/resources/${task.json.id}`)
  assert.equal(read.json.creator_id, id('bob'))
  const listed = await as('alice-key').get(`/v1/people/${id('bob')}`)
  assert.equal(listed.json.deactivated, true)
  const actions = await t.db.db
    .selectFrom('audit_log')
    .select('action')
    .where('created_at', '>=', new Date(Date.now() - 60_000))
    .where('actor_id', '=', id('adam'))
    .execute()
  for (const action of [
    'person.updated',
    'token.revoked',
    'oauth_grant.revoked',
    'webhook.disabled',
  ])
    assert.ok(
      actions.some((entry) => entry.action === action),
      action,
    )
  const [event] = await t.db.db
    .selectFrom('events')
    .selectAll()
    .where('type', '=', 'person.updated')
    .where('subject_id', '=', id('bob'))
    .execute()
  assert.deepEqual(
    (event?.data as { previous_attributes?: unknown } | undefined)?.previous_attributes,
    { deactivated: false },
  )
  // Again: nothing more to do.
  assert.equal((await as('adam-key').post(`/v1/people/${id('bob')}/deactivate`)).status, 200)

  // Reactivated: Bob signs in again; nothing deactivation ended comes back.
  const back = await as('adam-key').post(`/v1/people/${id('bob')}/reactivate`)
  assert.equal(back.status, 200, back.body)
  assert.equal(back.json.deactivated, false)
  assert.equal((await signInWithForm(t, 'bob@example.test', PEOPLE_PASSWORD)).status, 303)
  assert.equal((await bearer(held.key).get('/v1/me')).status, 401)
  assert.equal((await bearer(held.oauth).get('/v1/projects')).status, 401)
})

test('a deactivation that fails before it commits ends nothing: it is one transaction', async () => {
  const held = await credentialsOf('alice', 'alice@example.test')
  const before = await endpointStates(held.endpoints)
  t.deps.writeHooks.beforeCommit = async (route) => {
    if (route.endsWith('/deactivate')) throw new Error('the database went away just then')
  }
  try {
    const reply = await as('olive-key').post(`/v1/people/${id('alice')}/deactivate`)
    assert.equal(reply.status, 500)
  } finally {
    t.deps.writeHooks.beforeCommit = undefined
  }
  assert.equal(await deactivatedAt('alice'), null)
  assert.deepEqual(await works(held), { key: 200, oauth: 200, session: 200 })
  assert.deepEqual(await endpointStates(held.endpoints), before)
  const revoked = await t.db.db
    .selectFrom('tokens')
    .select('id')
    .where('person_id', '=', id('alice'))
    .where('revoked_at', 'is not', null)
    .execute()
  assert.deepEqual(revoked, [])
})

test('authentication refuses a deactivated person on its own, whatever revocation did', async () => {
  const visitor = await signIn(t, { workspaceId: ws.workspace_id, personId: id('alice') })
  assert.equal((await as('alice-key').get('/v1/me')).status, 200)
  // Marked by hand, as if a revocation had been missed: no key, session or sign-in works.
  await t.db.db
    .updateTable('people')
    .set({ deactivated_at: new Date() })
    .where('id', '=', id('alice'))
    .execute()
  try {
    assert.equal((await as('alice-key').get('/v1/me')).status, 401)
    assert.equal((await visitor.get('/')).status, 303)
    assert.equal((await signInWithForm(t, 'alice@example.test', PEOPLE_PASSWORD)).status, 401)
  } finally {
    await t.db.db
      .updateTable('people')
      .set({ deactivated_at: null })
      .where('id', '=', id('alice'))
      .execute()
  }
  assert.equal((await as('alice-key').get('/v1/me')).status, 200)
})

test('the last owner is protected; an admin cannot deactivate an owner; members cannot at all', async () => {
  const last = await as('olive-key').post(`/v1/people/${id('olive')}/deactivate`)
  assert.equal(last.status, 409, last.body)
  assert.equal(last.json.code, 'conflict')
  const byAdmin = await as('adam-key').post(`/v1/people/${id('olive')}/deactivate`)
  assert.equal(byAdmin.status, 403)
  const byMember = await as('alice-key').post(`/v1/people/${id('gus')}/deactivate`)
  assert.equal(byMember.status, 403)
  const scope = await as('adam-read').post(`/v1/people/${id('gus')}/deactivate`)
  assert.equal(scope.json.code, 'insufficient_scope')
  const unknown = await as('olive-key').post('/v1/people/usr_00000000000000000000000000/deactivate')
  assert.equal(unknown.status, 404)
  for (const person of ['olive', 'gus']) assert.equal(await deactivatedAt(person), null)
  // With a second owner, an owner may leave, by their own hand too.
  assert.equal(
    (await as('olive-key').patch(`/v1/people/${id('alice')}`, { role: 'owner' })).status,
    200,
  )
  const self = await as('alice-key').post(`/v1/people/${id('alice')}/deactivate`)
  assert.equal(self.status, 200, self.body)
  assert.equal((await as('alice-key').get('/v1/me')).status, 401)
  // A deactivated person's role is not changed until they are back; bringing back an owner is
  // an owner's decision.
  assert.equal(
    (await as('olive-key').patch(`/v1/people/${id('alice')}`, { role: 'member' })).status,
    409,
  )
  assert.equal((await as('adam-key').post(`/v1/people/${id('alice')}/reactivate`)).status, 403)
  assert.equal((await as('olive-key').post(`/v1/people/${id('alice')}/reactivate`)).status, 200)
})

test('the invitations a deactivated person sent are revoked with them', async () => {
  const sent = await as('adam-key').post('/v1/invitations', {
    email: 'left@example.test',
    role: 'member',
  })
  assert.equal(sent.status, 201)
  const byOther = await as('olive-key').post('/v1/invitations', {
    email: 'stays@example.test',
    role: 'member',
  })
  assert.equal(byOther.status, 201)
  assert.equal((await as('olive-key').post(`/v1/people/${id('adam')}/deactivate`)).status, 200)
  const pending = await as('olive-key').get('/v1/invitations?limit=100')
  const ids = pending.json.data.map((item: { id: string }) => item.id)
  assert.ok(!ids.includes(sent.json.invitation.id))
  assert.ok(ids.includes(byOther.json.invitation.id))
  const join = await client(t.app).get(new URL(sent.json.url).pathname, { accept: 'text/html' })
  assert.equal(join.status, 410)
})
