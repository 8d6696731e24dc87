import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, before, beforeEach, test } from 'node:test'
import { Webhook } from 'standardwebhooks'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { EVENT_TYPES } from '../../src/catalogue/verbs.ts'
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.ts'
import { sweepWebhookHistory } from '../../src/webhooks/webhook-retention.ts'
import { importOk, tokenOf, webhookBundle } from '../harness/bundles.ts'
import { type Received, type Receiver, reply, startReceiver } from '../harness/receiver.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

let t: TestApp
let ws: ImportResult
let receiver: Receiver
let dispatcher: WebhookDispatcher
const id = (key: string) => ws.ids[key] as string
const as = (key: string) => client(t.app, tokenOf(ws, key))
// Jitter pinned to its middle: delays are exactly the schedule's.
const deliverAll = () => dispatcher.drain()

before(async () => {
  t = await startTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' } })
  ws = await importOk(t.db.db, webhookBundle())
  receiver = await startReceiver()
  dispatcher = new WebhookDispatcher(t.deps, { random: () => 0.5, timeoutMs: 10_000 })
})
after(async () => {
  await dispatcher.stop(0)
  await receiver.close()
  await t.close()
})
beforeEach(async () => {
  // Every test starts with no endpoints and nothing waiting, so deliveries are its own.
  await t.db.db.updateTable('webhook_endpoints').set({ deleted_at: new Date() }).execute()
  await t.db.db.updateTable('events').set({ dispatched_at: new Date() }).execute()
  receiver.received.length = 0
  receiver.fallback = reply(200, {}, 'ok')
})

function sign(secret: string, raw: Buffer): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(raw).digest('hex')
}

async function register(key = 'alice-key', body: Record<string, unknown> = {}) {
  const created = await as(key).post('/v1/webhooks', { url: receiver.url, ...body })
  assert.equal(created.status, 201, created.body)
  return created.json as { id: string; secret: string }
}

async function createTask(key = 'alice-key', body: Record<string, unknown> = {}) {
  const created = await as(key).post('/v1/tasks', {
    title: 'Ship it',
    project_id: id('open'),
    ...body,
  })
  assert.equal(created.status, 201, created.body)
  return created.json as { id: string }
}

async function deliveriesOf(endpointId: string, key = 'alice-key') {
  const list = await as(key).get(`/v1/webhooks/${endpointId}/deliveries`)
  assert.equal(list.status, 200, list.body)
  return list.json.data
}

test('registering shows the secret once; it is sealed at rest and never listed', async () => {
  const endpoint = await register('alice-key', { description: 'CI', events: ['task.created'] })
  assert.match(endpoint.secret, /^whsec_[A-Za-z0-9+/]{43}=$/)
  const fetched = await as('alice-key').get(`/v1/webhooks/${endpoint.id}`)
  assert.equal(fetched.status, 200)
  assert.equal(fetched.json.secret, undefined)
  assert.deepEqual(fetched.json.events, ['task.created'])
  assert.equal(fetched.json.status, 'active')
  const listed = await as('alice-key').get('/v1/webhooks')
  assert.deepEqual(
    listed.json.data.map((row: { id: string }) => row.id),
    [endpoint.id],
  )
  assert.ok(!listed.body.includes(endpoint.secret))
  const row = await t.db.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', endpoint.id)
    .executeTakeFirstOrThrow()
  assert.ok(!JSON.stringify(row).includes(endpoint.secret.slice(6)), 'stored in plaintext')
  const audit = await t.db.db
    .selectFrom('audit_log')
    .selectAll()
    .where('resource_id', '=', endpoint.id)
    .execute()
  assert.deepEqual(
    audit.map((entry) => entry.action),
    ['webhook.created'],
  )
  assert.ok(!JSON.stringify(audit).includes(endpoint.secret.slice(6)))
})

test('an endpoint subscribes to every event type by default, or to all of them by name', async () => {
  const api = as('alice-key')
  const byDefault = await api.post('/v1/webhooks', { url: receiver.url })
  assert.equal(byDefault.status, 201, byDefault.body)
  assert.deepEqual(byDefault.json.events, [...EVENT_TYPES])
  const named = await api.post('/v1/webhooks', { url: receiver.url, events: [...EVENT_TYPES] })
  assert.equal(named.status, 201, named.body)
  const changed = await api.patch(`/v1/webhooks/${byDefault.json.id}`, {
    events: [...EVENT_TYPES].reverse(),
  })
  assert.equal(changed.status, 200, changed.body)
  assert.deepEqual(changed.json.events, [...EVENT_TYPES])
})

test("an endpoint is someone else's 404, and the scope is required", async () => {
  const endpoint = await register('alice-key')
  for (const key of ['bob-key', 'olive-key']) {
    assert.equal((await as(key).get(`/v1/webhooks/${endpoint.id}`)).status, 404)
    assert.equal((await as(key).delete(`/v1/webhooks/${endpoint.id}`)).status, 404)
  }
  const denied = await as('read-only-key').get('/v1/webhooks')
  assert.equal(denied.status, 403)
  assert.deepEqual(denied.json.required_scopes, ['webhook:manage'])
})

test('bad URLs are refused with 422 at /url, and nothing is stored', async () => {
  for (const url of [
    'http://example.com/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://10.0.0.1/',
    'https://user:pw@example.com/',
    'ftp://example.com/',
    'not a url',
    // IPv4-translated 169.254.169.254, Teredo, site-local; this app allows http loopback, but
    // not on port 80, said or implied.
    'https://[::ffff:0:a9fe:a9fe]/latest/meta-data/',
    'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    'https://[fec0::1]/',
    'http://127.0.0.1/hook',
    'http://localhost:80/hook',
  ]) {
    const refused = await as('alice-key').post('/v1/webhooks', { url })
    assert.equal(refused.status, 422, `${url}: ${refused.body}`)
    assert.equal(refused.json.errors[0].path, '/url')
  }
  const unknown = await as('alice-key').post('/v1/webhooks', {
    url: receiver.url,
    events: ['task.deleted'],
  })
  assert.equal(unknown.status, 422)
  const live = await t.db.db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('deleted_at', 'is', null)
    .execute()
  assert.equal(live.length, 0)
})

test('a delivery is signed over its raw bytes, with every documented header', async () => {
  const endpoint = await register()
  const task = await createTask('alice-key', { title: 'Émoji 🚀 naïve 漢字' })
  await deliverAll()
  assert.equal(receiver.received.length, 1)
  const [got] = receiver.received
  assert.ok(got)
  assert.equal(got.headers['x-service-signature'], sign(endpoint.secret, got.raw))
  assert.equal(got.headers['x-service-signature-previous'], undefined)
  assert.equal(Number(got.headers['content-length']), got.raw.length)
  assert.equal(got.headers['content-type'], 'application/json')
  const body = got.json
  assert.deepEqual(Object.keys(body), [
    'id',
    'type',
    'created_at',
    'workspace_id',
    'delivery',
    'data',
  ])
  assert.match(body.id, /^evt_/)
  assert.equal(body.type, 'task.created')
  assert.equal(body.workspace_id, ws.workspace_id)
  assert.equal(body.data.object.id, task.id)
  assert.equal(body.data.object.title, 'Émoji 🚀 naïve 漢字')
  assert.equal(got.headers['x-service-event-id'], body.id)
  assert.equal(got.headers['x-service-event-type'], 'task.created')
  assert.equal(got.headers['x-service-delivery-id'], body.delivery.id)
  assert.equal(got.headers['x-service-delivery-attempt'], '1')
  assert.equal(got.headers['x-service-timestamp'], String(body.delivery.sent_at))
  assert.equal(body.delivery.sent_at, Math.floor(t.clock.now().getTime() / 1000))
  // Flipping one byte breaks the signature.
  const flipped = Buffer.from(got.raw)
  flipped[10] = (flipped[10] ?? 0) ^ 1
  assert.notEqual(got.headers['x-service-signature'], sign(endpoint.secret, flipped))
  const [delivery] = await deliveriesOf(endpoint.id)
  assert.equal(delivery.status, 'succeeded')
  assert.equal(delivery.attempts.length, 1)
  assert.equal(delivery.attempts[0].status_code, 200)
})

test('the standardwebhooks verifier from npm accepts the Standard Webhooks headers', async () => {
  const endpoint = await register()
  await createTask()
  await deliverAll()
  const [got] = receiver.received
  assert.ok(got)
  // The verifier checks the timestamp against the real time; sign at the real time.
  const verifier = new Webhook(endpoint.secret)
  const headers = {
    'webhook-id': String(got.headers['webhook-id']),
    'webhook-timestamp': String(got.headers['webhook-timestamp']),
    'webhook-signature': String(got.headers['webhook-signature']),
  }
  assert.equal(headers['webhook-id'], got.json.id)
  assert.ok(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000) < 300)
  assert.deepEqual(verifier.verify(got.raw.toString('utf8'), headers), got.json)
  assert.throws(() =>
    verifier.verify(`${got.raw.toString('utf8')} `, {
      ...headers,
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    }),
  )
})

test('a 500 is retried after 5 s (±20 %): same event and delivery, new attempt, new signature', async () => {
  const endpoint = await register()
  await createTask()
  receiver.script(reply(500, {}, 'boom'))
  await deliverAll()
  let [delivery] = await deliveriesOf(endpoint.id)
  assert.equal(delivery.status, 'retrying')
  const wait = Date.parse(delivery.next_attempt_at) - t.clock.now().getTime()
  assert.ok(wait >= 4000 && wait <= 6000, `next attempt in ${wait} ms`)
  await deliverAll()
  assert.equal(receiver.received.length, 1, 'not before its time')
  t.clock.advance(6000)
  await deliverAll()
  assert.equal(receiver.received.length, 2)
  const [first, second] = receiver.received
  assert.ok(first && second)
  assert.equal(first.json.id, second.json.id)
  assert.equal(first.json.delivery.id, second.json.delivery.id)
  assert.deepEqual([first.json.delivery.attempt, second.json.delivery.attempt], [1, 2])
  assert.notEqual(first.json.delivery.sent_at, second.json.delivery.sent_at)
  assert.notEqual(first.headers['x-service-signature'], second.headers['x-service-signature'])
  assert.equal(second.headers['x-service-signature'], sign(endpoint.secret, second.raw))
  ;[delivery] = await deliveriesOf(endpoint.id)
  assert.equal(delivery.status, 'succeeded')
  assert.deepEqual(
    delivery.attempts.map((a: { status_code: number }) => a.status_code),
    [500, 200],
  )
})

test('Retry-After on a 429 is honoured within bounds, as seconds and as an HTTP date', async () => {
  const endpoint = await register()
  await createTask()
  receiver.script(reply(429, { 'retry-after': '120' }))
  await deliverAll()
  let [delivery] = await deliveriesOf(endpoint.id)
  let wait = Date.parse(delivery.next_attempt_at) - t.clock.now().getTime()
  assert.equal(wait, 120_000)
  t.clock.advance(wait)
  const date = new Date(t.clock.now().getTime() + 400_000).toUTCString()
  receiver.script(reply(503, { 'retry-after': date }))
  await deliverAll()
  ;[delivery] = await deliveriesOf(endpoint.id)
  wait = Date.parse(delivery.next_attempt_at) - t.clock.now().getTime()
  assert.ok(wait >= 399_000 && wait <= 600_000, `waits ${wait} ms`)
  t.clock.advance(wait)
  receiver.script(reply(429, { 'retry-after': '999999' }))
  await deliverAll()
  ;[delivery] = await deliveriesOf(endpoint.id)
  wait = Date.parse(delivery.next_attempt_at) - t.clock.now().getTime()
  // The third failure's delay is 30 min: a receiver may stretch it to an hour, no more.
  assert.equal(wait, 2 * 1800 * 1000, 'a receiver cannot park a delivery forever')
})

test('always failing: exactly 10 attempts on the schedule, then failed', async () => {
  const endpoint = await register()
  await createTask()
  receiver.fallback = reply(500)
  const offsets: number[] = []
  const start = t.clock.now().getTime()
  for (let i = 0; i < 12; i++) {
    await deliverAll()
    const [delivery] = await deliveriesOf(endpoint.id)
    if (delivery.next_attempt_at === null) break
    t.clock.advance(Date.parse(delivery.next_attempt_at) - t.clock.now().getTime())
    offsets.push((t.clock.now().getTime() - start) / 1000)
  }
  assert.equal(receiver.received.length, 10)
  assert.deepEqual(offsets, [5, 305, 2105, 9305, 27305, 63305, 113705, 185705, 272105])
  const [delivery] = await deliveriesOf(endpoint.id)
  assert.equal(delivery.status, 'failed')
  assert.equal(delivery.attempts.length, 10)
  t.clock.advance(86_400_000)
  await deliverAll()
  assert.equal(receiver.received.length, 10, 'no 11th attempt')
})

test('410 Gone disables the endpoint; later events are kept as skipped; re-enable and recover', async () => {
  const endpoint = await register()
  await createTask()
  receiver.script(reply(410))
  await deliverAll()
  const fetched = await as('alice-key').get(`/v1/webhooks/${endpoint.id}`)
  assert.equal(fetched.json.status, 'disabled')
  assert.equal(fetched.json.disabled_reason, 'receiver_gone')
  await createTask()
  await deliverAll()
  assert.equal(receiver.received.length, 1)
  const deliveries = await deliveriesOf(endpoint.id)
  assert.deepEqual(deliveries.map((d: { status: string }) => d.status).sort(), [
    'failed',
    'skipped',
  ])
  const refused = await as('alice-key').post(`/v1/webhooks/${endpoint.id}/recover`, {
    since: new Date(0).toISOString(),
  })
  assert.equal(refused.status, 409)
  const enabled = await as('alice-key').patch(`/v1/webhooks/${endpoint.id}`, { status: 'active' })
  assert.equal(enabled.status, 200, enabled.body)
  assert.equal(enabled.json.disabled_reason, null)
  const recovered = await as('alice-key').post(`/v1/webhooks/${endpoint.id}/recover`, {
    since: new Date(t.clock.now().getTime() - 60_000).toISOString(),
  })
  assert.equal(recovered.status, 202, recovered.body)
  assert.equal(recovered.json.replayed, 2)
  await deliverAll()
  assert.equal(receiver.received.length, 3)
  const again = await deliveriesOf(endpoint.id)
  assert.deepEqual(
    again.map((d: { status: string }) => d.status),
    ['succeeded', 'succeeded'],
  )
})

test('no success for 5 days disables the endpoint; a success on day 4 resets the clock', async () => {
  const endpoint = await register()
  receiver.fallback = reply(500)
  const day = 86_400_000
  await createTask()
  await deliverAll()
  t.clock.advance(4 * day)
  receiver.fallback = reply(200)
  await deliverAll()
  let fetched = await as('alice-key').get(`/v1/webhooks/${endpoint.id}`)
  assert.equal(fetched.json.failing_since, null, 'the success reset the clock')
  receiver.fallback = reply(500)
  await createTask()
  await deliverAll()
  t.clock.advance(4 * day)
  await createTask()
  await deliverAll()
  fetched = await as('alice-key').get(`/v1/webhooks/${endpoint.id}`)
  assert.equal(fetched.json.status, 'active', 'four days of failure is not five')
  t.clock.advance(day + 1000)
  await createTask()
  await deliverAll()
  fetched = await as('alice-key').get(`/v1/webhooks/${endpoint.id}`)
  assert.equal(fetched.json.status, 'disabled')
  assert.equal(fetched.json.disabled_reason, 'failing')
})

test('rotation: during the overlap old-only and new-only receivers verify; after it only new', async () => {
  const endpoint = await register()
  const rotated = await as('alice-key').post(`/v1/webhooks/${endpoint.id}/rotate-secret`, {
    grace_period_seconds: 3600,
  })
  assert.equal(rotated.status, 200, rotated.body)
  const fresh = rotated.json.secret as string
  assert.notEqual(fresh, endpoint.secret)
  assert.equal(Date.parse(rotated.json.previous_expires_at), t.clock.now().getTime() + 3_600_000)
  const again = await as('alice-key').post(`/v1/webhooks/${endpoint.id}/rotate-secret`, {})
  assert.equal(again.status, 409)
  await createTask()
  await deliverAll()
  let got = receiver.received.at(-1)
  assert.ok(got)
  const verifies = (secret: string, headers: Received['headers'], raw: Buffer) =>
    [headers['x-service-signature'], headers['x-service-signature-previous']].includes(
      sign(secret, raw),
    )
  assert.ok(verifies(endpoint.secret, got.headers, got.raw), 'a receiver with the old secret')
  assert.ok(verifies(fresh, got.headers, got.raw), 'a receiver with the new secret')
  assert.equal(got.headers['x-service-signature'], sign(fresh, got.raw))
  const standard = String(got.headers['webhook-signature']).split(' ')
  assert.equal(standard.length, 2)
  t.clock.advance(3_600_001)
  await createTask()
  await deliverAll()
  got = receiver.received.at(-1)
  assert.ok(got)
  assert.equal(got.headers['x-service-signature-previous'], undefined)
  assert.ok(!verifies(endpoint.secret, got.headers, got.raw), 'the old secret has expired')
  assert.ok(verifies(fresh, got.headers, got.raw))
  // grace 0 ends the old secret at once; force rotates during an overlap.
  const now = await as('alice-key').post(`/v1/webhooks/${endpoint.id}/rotate-secret`, {
    grace_period_seconds: 0,
  })
  assert.equal(now.json.previous_expires_at, null)
  await as('alice-key').post(`/v1/webhooks/${endpoint.id}/rotate-secret`, {})
  const forced = await as('alice-key').post(`/v1/webhooks/${endpoint.id}/rotate-secret`, {
    force: true,
  })
  assert.equal(forced.status, 200)
  const actions = await t.db.db
    .selectFrom('audit_log')
    .select('action')
    .where('resource_id', '=', endpoint.id)
    .where('action', '=', 'webhook.secret_rotated')
    .execute()
  assert.equal(actions.length, 4)
})

test('a retry queued before a rotation is signed with the new secret', async () => {
  const endpoint = await register()
  await createTask()
  receiver.script(reply(500))
  await deliverAll()
  const rotated = await as('alice-key').post(`/v1/webhooks/${endpoint.id}/rotate-secret`, {
    grace_period_seconds: 0,
  })
  t.clock.advance(10_000)
  await deliverAll()
  const got = receiver.received.at(-1)
  assert.ok(got)
  assert.equal(got.headers['x-service-signature'], sign(rotated.json.secret, got.raw))
})

test('replay sends the same event again with a new attempt; the log keeps the exact bytes', async () => {
  const endpoint = await register()
  await createTask()
  await deliverAll()
  const [delivery] = await deliveriesOf(endpoint.id)
  const replayed = await as('alice-key').post(
    `/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/replay`,
  )
  assert.equal(replayed.status, 202, replayed.body)
  assert.equal(replayed.json.status, 'pending')
  t.clock.advance(1000)
  await deliverAll()
  assert.equal(receiver.received.length, 2)
  const [first, second] = receiver.received
  assert.ok(first && second)
  assert.equal(second.json.id, first.json.id)
  assert.equal(second.json.delivery.attempt, 2)
  const detail = await as('alice-key').get(`/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}`)
  assert.equal(detail.status, 200, detail.body)
  assert.deepEqual(
    detail.json.attempts.map((a: { trigger: string }) => a.trigger),
    ['auto', 'replay'],
  )
  assert.equal(detail.json.attempts[1].request.body, second.raw.toString('utf8'))
  assert.equal(
    detail.json.attempts[1].request.headers['x-service-signature'],
    second.headers['x-service-signature'],
  )
  assert.deepEqual(detail.json.attempts[1].response, { status: 200, body: 'ok' })
  assert.ok(!detail.body.includes(endpoint.secret.slice(6)), 'no secret in the log')
  const unknown = await as('alice-key').post(
    `/v1/webhooks/${endpoint.id}/deliveries/dlv_00000000000000000000000000/replay`,
  )
  assert.equal(unknown.status, 404)
})

test('a test event goes to that endpoint only, signed and logged like any delivery', async () => {
  const endpoint = await register('alice-key', { events: ['task.created'] })
  const other = await register()
  const sent = await as('alice-key').post(`/v1/webhooks/${endpoint.id}/test`)
  assert.equal(sent.status, 202, sent.body)
  assert.equal(sent.json.event_type, 'webhook.test')
  await deliverAll()
  assert.equal(receiver.received.length, 1)
  const [received] = receiver.received
  assert.equal(received?.json.type, 'webhook.test')
  assert.deepEqual(received?.json.data.object, {
    id: endpoint.id,
    type: 'webhook',
    url: receiver.url,
    test: true,
  })
  assert.equal(received?.headers['x-service-signature'], sign(endpoint.secret, received.raw))
  const [delivery] = await deliveriesOf(endpoint.id)
  assert.equal(delivery.status, 'succeeded')
  assert.deepEqual(await deliveriesOf(other.id), [])
  const audit = await t.db.db
    .selectFrom('audit_log')
    .select('action')
    .where('resource_id', '=', endpoint.id)
    .orderBy('created_at')
    .execute()
  // The test clock stands still: both entries have one time, so their order is not asserted.
  assert.deepEqual(audit.map((row) => row.action).sort(), ['webhook.created', 'webhook.test_sent'])
})

test('events about what the owner cannot open are never delivered; links are filtered', async () => {
  const alice = await register('alice-key')
  const bob = await register('bob-key')
  const gus = await register('gus-key')
  const bot = await register('bot-token')
  const secretTask = await createTask('alice-key', { project_id: id('secret') })
  const openTask = await createTask('alice-key', { project_id: id('open') })
  await deliverAll()
  const subjects = (endpointId: string) =>
    t.db.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as v', 'v.id', 'd.event_id')
      .select('v.subject_id')
      .where('d.endpoint_id', '=', endpointId)
      .execute()
      .then((rows) => rows.map((row) => row.subject_id).sort())
  assert.deepEqual(await subjects(alice.id), [secretTask.id, openTask.id].sort())
  assert.deepEqual(await subjects(bob.id), [openTask.id])
  assert.deepEqual(await subjects(gus.id), [openTask.id])
  assert.deepEqual(await subjects(bot.id), [secretTask.id])
  // What gus receives names only what gus may open: the same links as gus's own GET.
  const toGus = receiver.received.find(
    (r) =>
      r.json.data.object.id === openTask.id &&
      r.headers['x-service-signature'] === sign(gus.secret, r.raw),
  )
  assert.ok(toGus)
  const seen = await as('gus-key').get(`/v1/resources/${openTask.id}`)
  assert.equal(seen.status, 200)
  for (const field of ['creator_id', 'assignee_id', 'project_id', 'parent_id', 'canvas_id'])
    assert.equal(toGus.json.data.object[field], seen.json[field], field)
  assert.equal(toGus.json.data.object.creator_id, null, 'alice is hidden from gus')
  assert.equal(
    receiver.received.filter((r) => r.json.data.object.id === secretTask.id).length,
    2,
    'alice and the bot only',
  )
})

test('access lost between the event and its sending: the delivery is skipped, not sent', async () => {
  const bob = await register('bob-key')
  const task = await createTask('alice-key', { project_id: id('open') })
  // Fan out while bob may open the task, then make the project private before sending.
  const { fanOutEvents } = await import('../../src/webhooks/fan-out.ts')
  await fanOutEvents(t.deps)
  await t.db.db
    .updateTable('projects')
    .set({ visibility: 'private' })
    .where('id', '=', id('open'))
    .execute()
  const { syncProjectTree } = await import('../../src/access/resource-index.ts')
  await syncProjectTree(t.db.db, ws.workspace_id, id('open'))
  await deliverAll()
  const [delivery] = await deliveriesOf(bob.id, 'bob-key')
  assert.equal(delivery.status, 'skipped')
  assert.equal(delivery.last_error, 'not_visible')
  assert.ok(!receiver.received.some((r) => r.json.data.object.id === task.id))
  await t.db.db
    .updateTable('projects')
    .set({ visibility: 'workspace' })
    .where('id', '=', id('open'))
    .execute()
  await syncProjectTree(t.db.db, ws.workspace_id, id('open'))
})

test('redirects are not followed; timeouts and refused connections are logged by kind', async (context) => {
  // A deadline of its own, short: the receiver below never answers, so the attempt always times
  // out however busy the machine; healthy deliveries elsewhere get a long one.
  const quick = new WebhookDispatcher(t.deps, { random: () => 0.5, timeoutMs: 500 })
  context.after(() => quick.stop(0))
  const endpoint = await register()
  receiver.script(reply(302, { location: 'http://169.254.169.254/latest/meta-data/' }))
  await createTask()
  await quick.drain()
  receiver.script((_request, _response) => {
    /* never answers: the quick dispatcher's deadline ends it */
  })
  t.clock.advance(10_000)
  await quick.drain()
  const [delivery] = await deliveriesOf(endpoint.id)
  assert.deepEqual(
    delivery.attempts.map((a: { error: string; status_code: number | null }) => [
      a.error,
      a.status_code,
    ]),
    [
      ['redirect', 302],
      ['timeout', null],
    ],
  )
  assert.equal(receiver.received.length, 2, 'the redirect target was never asked')
  const closed = await startReceiver()
  const url = closed.url
  await closed.close()
  await as('alice-key').patch(`/v1/webhooks/${endpoint.id}`, { url })
  t.clock.advance(600_000)
  await quick.drain()
  const [after] = await deliveriesOf(endpoint.id)
  assert.equal(after.attempts.at(-1).error, 'connection_refused')
})

test('at most 64 KiB of a response is read and logged', async () => {
  const endpoint = await register()
  receiver.script((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' })
    const chunk = 'x'.repeat(64 * 1024)
    for (let i = 0; i < 40; i++) response.write(chunk)
    response.end()
  })
  await createTask()
  await deliverAll()
  const [delivery] = await deliveriesOf(endpoint.id)
  const detail = await as('alice-key').get(`/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}`)
  assert.equal(detail.json.attempts[0].response.body.length, 64 * 1024)
})

test('history older than the retention period is swept', async () => {
  const endpoint = await register()
  await createTask()
  await deliverAll()
  assert.equal((await deliveriesOf(endpoint.id)).length, 1)
  await sweepWebhookHistory(t.db.db, t.clock.now(), 30)
  assert.equal((await deliveriesOf(endpoint.id)).length, 1, 'young history stays')
  t.clock.advance(31 * 86_400_000)
  await sweepWebhookHistory(t.db.db, t.clock.now(), 30)
  assert.equal((await deliveriesOf(endpoint.id)).length, 0)
})

test('deleting an endpoint stops its deliveries', async () => {
  const endpoint = await register()
  receiver.fallback = reply(500)
  await createTask()
  await deliverAll()
  const deleted = await as('alice-key').delete(`/v1/webhooks/${endpoint.id}`)
  assert.equal(deleted.status, 200)
  assert.deepEqual(deleted.json, { id: endpoint.id, deleted: true })
  t.clock.advance(60_000)
  await deliverAll()
  assert.equal(receiver.received.length, 1)
  assert.equal((await as('alice-key').get(`/v1/webhooks/${endpoint.id}`)).status, 404)
})

test('a delivery whose sending keeps losing its lease still runs out of attempts', async () => {
  const endpoint = await register()
  await createTask()
  const { fanOutEvents } = await import('../../src/webhooks/fan-out.ts')
  await fanOutEvents(t.deps)
  // As if ten dispatchers in a row had claimed it and died before recording anything.
  await t.db.db
    .updateTable('webhook_deliveries')
    .set({ attempt_count: 10, run_attempts: 10 })
    .where('endpoint_id', '=', endpoint.id)
    .execute()
  await deliverAll()
  const [delivery] = await deliveriesOf(endpoint.id)
  assert.equal(delivery.status, 'failed')
  assert.equal(delivery.last_error, 'attempts_exhausted')
  assert.equal(receiver.received.length, 0)
})
