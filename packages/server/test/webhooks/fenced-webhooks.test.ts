import assert from 'node:assert/strict'
import { after, before, beforeEach, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.ts'
import { ALL_READ_SCOPES, ALL_WRITE_SCOPES, importOk, smallBundle } from '../harness/bundles.ts'
import { type Receiver, reply, startReceiver } from '../harness/receiver.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// Webhook endpoints made with a fenced key hear only of what is inside its fence, and stop with
// the key's end (docs/permissions.md, "Fenced credentials").

const EVERYTHING = [...ALL_READ_SCOPES, ...ALL_WRITE_SCOPES, 'webhook:manage', 'token:manage']
const HOUR = 3_600_000

let t: TestApp
let ws: ImportResult
let receiver: Receiver
let dispatcher: WebhookDispatcher
const alice = () => client(t.app, ws.api_keys['alice-full']?.token)

before(async () => {
  t = await startTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' } })
  const bundle = smallBundle()
  bundle.api_keys = [{ key: 'alice-full', person: 'alice', scopes: EVERYTHING }]
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

async function endpointWith(body: Record<string, unknown>): Promise<string> {
  const key = await alice().post('/v1/api-keys', { name: 'hooks', scopes: EVERYTHING, ...body })
  assert.equal(key.status, 201, key.body)
  const created = await client(t.app, key.json.token).post('/v1/webhooks', {
    url: `${receiver.url}/${key.json.id}`,
    events: ['task.created', 'comment.created'],
  })
  assert.equal(created.status, 201, created.body)
  return key.json.id
}

async function createTask(project: string | null): Promise<string> {
  const body = { title: 'Hook me', ...(project && { project_id: ws.ids[project] }) }
  const created = await alice().post('/v1/tasks', body)
  assert.equal(created.status, 201, created.body)
  return created.json.id
}

const heardBy = (keyId: string) =>
  receiver.received
    .filter((r) => r.url.endsWith(`/${keyId}`))
    .map((r) => r.json.data.object.id as string)
    .sort()

test('an endpoint made by a fenced key hears only of resources inside the fence', async () => {
  const fenced = await endpointWith({ project_ids: [ws.ids.secret] })
  const whole = await endpointWith({})
  const inside = await createTask('secret')
  const outside = await createTask('open')
  const loose = await createTask(null)
  const comment = await alice().post('/v1/comments', { resource_id: outside, body: 'outside' })
  assert.equal(comment.status, 201, comment.body)
  await dispatcher.drain()
  assert.deepEqual(heardBy(fenced), [inside])
  assert.deepEqual(heardBy(whole), [inside, outside, loose, comment.json.id].sort())
})

test('an endpoint made by a key with an end stops at that end', async () => {
  const keyId = await endpointWith({
    expires_at: new Date(t.clock.now().getTime() + HOUR).toISOString(),
  })
  const before = await createTask('open')
  await dispatcher.drain()
  assert.deepEqual(heardBy(keyId), [before])
  t.clock.advance(HOUR)
  await createTask('open')
  await dispatcher.drain()
  assert.deepEqual(heardBy(keyId), [before], 'nothing after the key ended')
  const endpoint = await t.db.db
    .selectFrom('webhook_endpoints')
    .select(['status', 'disabled_reason'])
    .where('credential_id', '=', keyId)
    .executeTakeFirstOrThrow()
  assert.deepEqual(endpoint, { status: 'disabled', disabled_reason: 'credential_revoked' })
})
