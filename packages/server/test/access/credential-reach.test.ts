import assert from 'node:assert/strict'
import { after, before, beforeEach, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.ts'
import {
  ALL_READ_SCOPES,
  ALL_WRITE_SCOPES,
  importOk,
  smallBundle,
  tokenOf,
} from '../harness/bundles.ts'
import { submitDashboardForm } from '../harness/dashboard-form.ts'
import { type Receiver, reply, startReceiver } from '../harness/receiver.ts'
import { allPages, client, startTestApp, type TestApp } from '../harness/test-app.ts'

/*
 * Whatever acts later on a person's behalf acts within what its creating credential held and what
 * the acting credential holds now (docs/permissions.md, "What a credential reaches"), probed as an
 * attacker holding a narrower key of the same person would.
 */

const EVERYTHING = [...ALL_READ_SCOPES, ...ALL_WRITE_SCOPES, 'webhook:manage', 'token:manage']
const HOUR = 3_600_000

let t: TestApp
let ws: ImportResult
let receiver: Receiver
let dispatcher: WebhookDispatcher
before(async () => {
  t = await startTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' } })
  const bundle = smallBundle()
  bundle.api_keys = [
    { key: 'alice-all', person: 'alice', scopes: EVERYTHING },
    { key: 'olive-all', person: 'olive', scopes: EVERYTHING },
    { key: 'adam-all', person: 'adam', scopes: EVERYTHING },
  ]
  ws = await importOk(t.db.db, bundle)
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

const id = (key: string) => ws.ids[key] as string
const as = (key: string) => client(t.app, tokenOf(ws, key))

async function keyOf(
  maker: ReturnType<typeof client>,
  body: Record<string, unknown>,
): Promise<{ id: string; token: string }> {
  const created = await maker.post('/v1/api-keys', { name: 'made', scopes: EVERYTHING, ...body })
  assert.equal(created.status, 201, created.body)
  return created.json
}

async function endpointOf(maker: ReturnType<typeof client>, tag: string): Promise<string> {
  const created = await maker.post('/v1/webhooks', {
    url: `${receiver.url}/${tag}`,
    events: ['task.created', 'comment.created'],
  })
  assert.equal(created.status, 201, created.body)
  return created.json.id
}

test('a key fenced to one project neither lists, reads, changes nor replays the person’s unfenced endpoints', async () => {
  const whole = await endpointOf(as('alice-all'), 'whole')
  const task = await as('alice-all').post('/v1/tasks', {
    title: 'Open work',
    project_id: id('open'),
  })
  assert.equal(task.status, 201, task.body)
  await dispatcher.drain()
  const deliveries = await as('alice-all').get(`/v1/webhooks/${whole}/deliveries`)
  const delivery = deliveries.json.data[0].id as string

  const fenced = client(
    t.app,
    (await keyOf(as('alice-all'), { project_ids: [id('secret')] })).token,
  )
  const listed = await allPages(fenced, '/v1/webhooks', 10)
  assert.ok(!listed.some((endpoint) => endpoint.id === whole), 'listed')
  const unknown = await fenced.get('/v1/webhooks/whk_zzzzzzzzzzzzzzzzzzzzzz')
  for (const path of [`/v1/webhooks/${whole}`, `/v1/webhooks/${whole}/deliveries`]) {
    const read = await fenced.get(path)
    assert.equal(read.status, 404, `${path}: ${read.body}`)
    assert.equal(read.json.code, unknown.json.code)
  }
  const details = await fenced.get(`/v1/webhooks/${whole}/deliveries/${delivery}`)
  assert.equal(details.status, 404, details.body)
  assert.ok(!details.body.includes('Open work'))
  const moved = await fenced.patch(`/v1/webhooks/${whole}`, { url: `${receiver.url}/evil` })
  assert.equal(moved.status, 404, moved.body)
  for (const path of [
    `/v1/webhooks/${whole}/deliveries/${delivery}/replay`,
    `/v1/webhooks/${whole}/test`,
    `/v1/webhooks/${whole}/rotate-secret`,
  ]) {
    const write = await fenced.post(path, path.endsWith('rotate-secret') ? {} : undefined)
    assert.equal(write.status, 404, `${path}: ${write.body}`)
  }
  const recover = await fenced.post(`/v1/webhooks/${whole}/recover`, {
    since: new Date(t.clock.now().getTime() - HOUR).toISOString(),
  })
  assert.equal(recover.status, 404, recover.body)
  assert.equal((await fenced.delete(`/v1/webhooks/${whole}`)).status, 404)
  // Later events outside the fence still go where the endpoint's owner sent them, nowhere else.
  receiver.received.length = 0
  await as('alice-all').post('/v1/tasks', { title: 'More open work', project_id: id('open') })
  await dispatcher.drain()
  assert.ok(receiver.received.every((request) => request.url.endsWith('/whole')))
  assert.ok(receiver.received.length > 0)
})

test('a key holding only webhook:manage sees no endpoint made with read scopes it lacks', async () => {
  const whole = await endpointOf(as('alice-all'), 'reads')
  const manager = client(
    t.app,
    (await keyOf(as('alice-all'), { scopes: ['webhook:manage'] })).token,
  )
  assert.ok(!(await allPages(manager, '/v1/webhooks', 10)).some((e) => e.id === whole))
  assert.equal((await manager.get(`/v1/webhooks/${whole}/deliveries`)).status, 404)
  assert.equal(
    (await manager.patch(`/v1/webhooks/${whole}`, { url: `${receiver.url}/evil` })).status,
    404,
  )
  // What it made itself it manages.
  const own = await endpointOf(manager, 'own')
  assert.equal((await manager.get(`/v1/webhooks/${own}`)).status, 200)
})

test('changing an endpoint binds it to the credential that changed it, within what both hold', async () => {
  const made = await keyOf(as('alice-all'), { scopes: ['task:read', 'webhook:manage'] })
  const endpoint = await endpointOf(client(t.app, made.token), 'rebound')
  const changer = await keyOf(as('alice-all'), {
    expires_at: new Date(t.clock.now().getTime() + HOUR).toISOString(),
  })
  const patched = await client(t.app, changer.token).patch(`/v1/webhooks/${endpoint}`, {
    url: `${receiver.url}/rebound`,
    events: ['task.created', 'comment.created'],
  })
  assert.equal(patched.status, 200, patched.body)
  // The key that made it no longer keeps it alive; the one that changed it does.
  const revoked = await as('alice-all').post(`/v1/tokens/${made.id}/revoke`)
  assert.equal(revoked.status, 200, revoked.body)
  const task = await as('alice-all').post('/v1/tasks', {
    title: 'Still heard',
    project_id: id('open'),
  })
  const comment = await as('alice-all').post('/v1/comments', {
    resource_id: task.json.id,
    body: 'not for a task-only endpoint',
  })
  assert.equal(comment.status, 201, comment.body)
  await dispatcher.drain()
  const heard = receiver.received.filter((r) => r.url.endsWith('/rebound'))
  // Within both: the comment needs comment:read, which the endpoint was never given.
  assert.deepEqual(
    heard.map((r) => r.json.type),
    ['task.created'],
  )
  // When the credential that changed it ends, it stops.
  t.clock.advance(HOUR + 1000)
  receiver.received.length = 0
  await as('alice-all').post('/v1/tasks', { title: 'Not heard', project_id: id('open') })
  await dispatcher.drain()
  assert.deepEqual(
    receiver.received.filter((r) => r.url.endsWith('/rebound')),
    [],
  )
  const record = await as('alice-all').get(`/v1/webhooks/${endpoint}`)
  assert.equal(record.json.disabled_reason, 'credential_revoked')
})

// Submits the dashboard's workspace-token form as a signed-in person; the page's status.
const mintOnDashboard = async (person: string, fields: [string, string][]) =>
  (
    await submitDashboardForm(
      t,
      { workspaceId: ws.workspace_id, personId: id(person) },
      '/settings/tokens',
      fields,
    )
  ).status

const integrationTokens = () =>
  t.db.db
    .selectFrom('tokens')
    .select('name')
    .where('kind', '=', 'workspace_token')
    .execute()
    .then((rows) => rows.map((row) => row.name).sort())

test('an admin cannot mint a workspace token that opens a private project they are not in', async () => {
  const before = await integrationTokens()
  // adam (admin) and olive (owner) are not in "secret"; the integration bot is.
  for (const person of ['adam', 'olive']) {
    const status = await mintOnDashboard(person, [
      ['name', `peek by ${person}`],
      ['integration', id('bot')],
      ['scopes', 'project:read'],
      ['scopes', 'task:read'],
    ])
    assert.equal(status, 403, person)
  }
  assert.deepEqual(await integrationTokens(), before)
  // A new integration opens nothing yet: that is allowed.
  const fresh = await mintOnDashboard('adam', [
    ['name', 'fresh'],
    ['integration', 'new'],
    ['integration_name', 'Fresh bot'],
    ['scopes', 'task:read'],
  ])
  assert.equal(fresh, 201)
})

test('a key made with a key ends when its maker is revoked, and follows its maker’s rotation', async () => {
  const parent = await keyOf(as('alice-all'), {})
  const child = await keyOf(client(t.app, parent.token), {})
  const grandchild = await keyOf(client(t.app, child.token), {})
  assert.equal((await client(t.app, grandchild.token).get('/v1/workspace')).status, 200)
  // A rotation hands the lineage to the new key.
  const rotated = await client(t.app, parent.token).post(`/v1/api-keys/${parent.id}/rotate`, {
    overlap_seconds: 0,
  })
  assert.equal(rotated.status, 200, rotated.body)
  assert.equal((await client(t.app, child.token).get('/v1/workspace')).status, 200)
  const revoked = await as('alice-all').post(`/v1/tokens/${rotated.json.id}/revoke`)
  assert.equal(revoked.status, 200, revoked.body)
  for (const key of [child, grandchild]) {
    const used = await client(t.app, key.token).get('/v1/workspace')
    assert.equal(used.status, 401, used.body)
    const listed = (await allPages(as('alice-all'), '/v1/tokens', 100)).find((k) => k.id === key.id)
    assert.equal(listed.status, 'revoked')
  }
})

test('a fenced key creating a task or canvas must name a project inside its fence: 422, never 500', async () => {
  const fenced = client(
    t.app,
    (await keyOf(as('alice-all'), { project_ids: [id('secret')] })).token,
  )
  for (const [path, body] of [
    ['/v1/tasks', { title: 'Loose task' }],
    ['/v1/canvases', { title: 'Loose canvas' }],
  ] as const) {
    for (const suffix of ['', '?dry_run=true']) {
      const created = await fenced.post(`${path}${suffix}`, body)
      assert.equal(created.status, 422, `${path}${suffix}: ${created.body}`)
      assert.equal(created.json.errors[0].path, '/project_id')
    }
    const inside = await fenced.post(path, { ...body, project_id: id('secret') })
    assert.equal(inside.status, 201, inside.body)
  }
})

test('access reasons name only projects the asker can open through its own credential', async () => {
  const bundle = smallBundle()
  const secret = bundle.projects?.find((project) => project.key === 'secret')
  secret?.members?.push({ person: 'gus' })
  bundle.api_keys = [
    { key: 'olive-reasons', person: 'olive', scopes: EVERYTHING },
    { key: 'gus-reasons', person: 'gus', scopes: EVERYTHING },
  ]
  const other = await importOk(t.db.db, bundle)
  const ask = (key: string, path: string) => client(t.app, tokenOf(other, key)).get(path)
  const alice = other.ids.alice as string
  const hidden = other.ids.secret as string
  // The owner is not in the private project: nothing may name it, nor tell the guest is in it.
  const aboutGus = await ask(
    'olive-reasons',
    `/v1/resources/${alice}/access?person_id=${other.ids.gus}`,
  )
  assert.equal(aboutGus.status, 200, aboutGus.body)
  assert.ok(!aboutGus.body.includes(hidden), aboutGus.body)
  assert.deepEqual(aboutGus.json.reasons, [])
  // The guest's own key, fenced to the open project: the private project is outside the fence.
  const fenced = await client(t.app, tokenOf(other, 'gus-reasons')).post('/v1/api-keys', {
    name: 'fenced',
    scopes: ALL_READ_SCOPES,
    project_ids: [other.ids.open],
  })
  assert.equal(fenced.status, 201, fenced.body)
  const own = await client(t.app, fenced.json.token).get(`/v1/resources/${alice}/access`)
  assert.equal(own.status, 200, own.body)
  assert.ok(!own.body.includes(hidden), own.body)
  assert.deepEqual(own.json.reasons, [{ kind: 'collaborator' }])
  // Unfenced, the guest sees why.
  const whole = await ask('gus-reasons', `/v1/resources/${alice}/access`)
  assert.deepEqual(whole.json.reasons, [{ kind: 'collaborator', via_id: hidden }])
})
