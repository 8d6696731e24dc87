import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { contentState } from '../harness/row-counts.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { type Fields, mainText, signIn, type Visitor } from '../harness/web-visitor.ts'

// The webhook pages (web/webhook-pages.routes.ts): the person's endpoints, adding one, and every
// action of the API on them (status, events, rotation, test event, recovery, replay) through the
// API's commands and schemas. Unknown ids on every form are unknown-ids.test.ts's subject; the
// pages in a browser, with a receiver and the dispatcher, browser/webhooks-audit-pages.

const URL_IN = 'https://hooks.example.test/in'
const EXTRA = ['webhook_endpoints', 'webhook_deliveries', 'webhook_attempts']

let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp({ env: { PUBLIC_URL: 'http://127.0.0.1:8080' } })
  ws = await importOk(t.db.db, smallBundle())
})
after(() => t.close())

const as = (person: string) =>
  signIn(t, { workspaceId: ws.workspace_id, personId: ws.ids[person] as string })
const state = () => contentState(t.db.db, EXTRA)
const endpointRow = (id: string) =>
  t.db.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const deliveriesOf = (id: string) =>
  t.db.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', id).execute()
const alertOn = (body: string) =>
  /<p class="error" role="alert">([^<]*)<\/p>/.exec(body)?.[1] ?? null
const noticeOn = (body: string) => /<p class="notice" role="status">([^<]*)<\/p>/.exec(body)?.[1]
const secretOn = (body: string) =>
  /<code class="secret" id="secret">(whsec_[^<]+)<\/code>/.exec(body)?.[1]

/** Adds an endpoint on the page and returns its id. */
async function addEndpoint(visitor: Visitor, url = URL_IN): Promise<string> {
  const reply = await visitor.submit('/webhooks', [
    ['url', url],
    ['events', 'task.created'],
    ['events', 'comment.created'],
  ])
  assert.equal(reply.status, 201, mainText(reply.body))
  return /<a href="\/webhooks\/(whk_[0-9a-z]+)">Go to the endpoint<\/a>/.exec(
    reply.body,
  )?.[1] as string
}

/** Queues a test event on an endpoint and returns its delivery's id. */
async function testDelivery(visitor: Visitor, id: string): Promise<string> {
  assert.equal((await visitor.submit(`/webhooks/${id}/test`)).status, 303)
  const [delivery] = await deliveriesOf(id)
  return delivery?.id as string
}

test('signed out, the pages redirect to sign-in and back, and a form writes nothing', async () => {
  const alice = await as('alice')
  const id = await addEndpoint(alice)
  const delivery = await testDelivery(alice, id)
  const anonymous = client(t.app)
  for (const path of ['/webhooks', `/webhooks/${id}`, `/webhooks/${id}/deliveries/${delivery}`]) {
    const reply = await anonymous.get(path)
    assert.equal(reply.status, 303, path)
    assert.equal(reply.headers.location, `/sign-in?return_to=${encodeURIComponent(path)}`)
  }
  const before = await state()
  for (const path of ['/webhooks', `/webhooks/${id}/status`]) {
    const reply = await anonymous.post(path, `url=${encodeURIComponent(URL_IN)}&status=disabled`, {
      'content-type': 'application/x-www-form-urlencoded',
    })
    assert.equal(reply.status, 303, path)
    assert.match(String(reply.headers.location), /^\/sign-in\?return_to=/)
  }
  assert.deepEqual(await state(), before)
})

test("adding an endpoint: 201 with its secret once; the person's, events as chosen", async () => {
  const gus = await as('gus')
  const empty = await gus.get('/webhooks')
  assert.equal(empty.status, 200)
  assert.match(mainText(empty.body), /You have no webhook endpoints yet\./)
  const reply = await gus.submit('/webhooks', [
    ['url', 'https://hooks.example.test/gus'],
    ['events', 'task.created'],
    ['description', 'CI <receiver>'],
  ])
  assert.equal(reply.status, 201, mainText(reply.body))
  assert.match(mainText(reply.body), /^Signing secret The endpoint was added\. Copy the secret now/)
  const secret = secretOn(reply.body) as string
  assert.ok(secret, 'the secret is on the page')
  const id = /href="\/webhooks\/(whk_[0-9a-z]+)"/.exec(reply.body)?.[1] as string
  const row = await endpointRow(id)
  assert.equal(row.owner_id, ws.ids.gus)
  assert.equal(row.url, 'https://hooks.example.test/gus')
  assert.deepEqual(row.event_types, ['task.created'])
  assert.equal(row.description, 'CI <receiver>')
  assert.equal(row.status, 'active')
  const audit = await t.db.db
    .selectFrom('audit_log')
    .select(['action', 'via', 'actor_id'])
    .where('resource_id', '=', id)
    .execute()
  assert.deepEqual(audit, [{ action: 'webhook.created', via: 'web', actor_id: ws.ids.gus }])
  const list = await gus.get('/webhooks')
  assert.match(
    list.body,
    new RegExp(`<a href="/webhooks/${id}">https://hooks.example.test/gus</a>`),
  )
  assert.ok(list.body.includes('CI &#60;receiver&#62;'), 'the description, escaped')
  assert.ok(!list.body.includes(secret), 'the list never shows the secret')
  for (const person of ['bob', 'olive']) {
    const other = await (await as(person)).get('/webhooks')
    assert.ok(!other.body.includes(id), `${person} does not see gus's endpoint`)
  }
})

test('bad input to the add form: a 4xx page, the message by its field, no write', async () => {
  const alice = await as('alice')
  const before = await state()
  for (const [what, fields, status, field] of [
    ['a URL that is not https', [['url', 'ftp://hooks.example.test/in']], 422, 'url'],
    ['no URL', [['url', '']], 400, 'url'],
    [
      'an unknown event',
      [
        ['url', URL_IN],
        ['events', 'task.exploded'],
      ],
      400,
      'new-events',
    ],
    ['no event', [['url', URL_IN]], 400, 'new-events'],
    [
      'a long description',
      [
        ['url', URL_IN],
        ['description', 'd'.repeat(501)],
      ],
      400,
      'description',
    ],
  ] as [string, Fields, number, string][]) {
    // Every case but the event ones ticks an event: an absent list is a refusal of its own.
    const events: Fields = field === 'new-events' ? [] : [['events', 'task.created']]
    const reply = await alice.submit('/webhooks', [...fields, ...events])
    assert.equal(reply.status, status, `${what}: ${alertOn(reply.body)}`)
    assert.match(reply.body, /<h1>Webhooks<\/h1>/, what)
    assert.ok(alertOn(reply.body), `${what}: a summary`)
    assert.match(reply.body, new RegExp(`<p class="error field-error" id="${field}-error">`), what)
  }
  // The form comes back as it was sent.
  const kept = await alice.submit('/webhooks', [
    ['url', 'ftp://hooks.example.test/kept'],
    ['events', 'okr.checkin'],
  ])
  assert.equal(kept.status, 422)
  assert.match(kept.body, /id="url" name="url" type="url" required maxlength="2048" value="ftp:/)
  assert.match(kept.body, /value="okr.checkin" id="new-okr.checkin" checked>/)
  assert.doesNotMatch(kept.body, /value="task.created" id="new-task.created" checked>/)
  assert.deepEqual(await state(), before)
})

test('an endpoint page: its facts and forms, and only notices from its fixed list', async () => {
  const alice = await as('alice')
  const id = await addEndpoint(alice)
  const page = await alice.get(`/webhooks/${id}`)
  assert.equal(page.status, 200)
  assert.match(page.body, new RegExp(`<h1>${URL_IN}</h1>`))
  for (const form of ['status', 'test', 'events', 'rotate', 'recover'])
    assert.match(page.body, new RegExp(`action="/webhooks/${id}/${form}"`), form)
  assert.equal(noticeOn(page.body), undefined)
  const done = await alice.get(`/webhooks/${id}?done=events`)
  assert.equal(noticeOn(done.body), 'The events were saved.')
  const echoed = await alice.get(`/webhooks/${id}?done=${encodeURIComponent('<b>pwned</b>')}`)
  assert.equal(echoed.status, 200)
  assert.equal(noticeOn(echoed.body), undefined)
  assert.ok(!echoed.body.includes('pwned'), 'the address is never echoed')
})

test("someone else's endpoint: the 404 page for every page and form, no change", async () => {
  const alice = await as('alice')
  const id = await addEndpoint(alice)
  const delivery = await testDelivery(alice, id)
  const forms: [string, Fields][] = [
    [`/webhooks/${id}/status`, [['status', 'disabled']]],
    [`/webhooks/${id}/events`, [['events', 'task.created']]],
    [`/webhooks/${id}/rotate`, [['grace_period_seconds', '0']]],
    [`/webhooks/${id}/test`, []],
    [`/webhooks/${id}/recover`, [['since', '2000-01-01T00:00']]],
    [`/webhooks/${id}/deliveries/${delivery}/replay`, []],
  ]
  const before = await state()
  // The workspace's owner too: endpoints are their owner's alone.
  for (const person of ['bob', 'olive']) {
    const other = await as(person)
    const unknown = await other.get(`/webhooks/whk_${'0'.repeat(26)}`)
    assert.equal(unknown.status, 404)
    assert.match(unknown.body, /<h1>Page not found<\/h1>/)
    for (const path of [`/webhooks/${id}`, `/webhooks/${id}/deliveries/${delivery}`]) {
      const reply = await other.get(path)
      assert.equal(reply.status, 404, `${person} ${path}`)
      assert.equal(reply.body, unknown.body, `${person} ${path}`)
    }
    for (const [path, fields] of forms) {
      const reply = await other.submit(path, fields)
      assert.equal(reply.status, 404, `${person} ${path}`)
      assert.equal(reply.body, unknown.body, `${person} ${path}`)
    }
  }
  assert.deepEqual(await state(), before)
})

test('every form, cross-site or without the session token, is a 403 with no write', async () => {
  const alice = await as('alice')
  const id = await addEndpoint(alice)
  const delivery = await testDelivery(alice, id)
  const forms: [string, Fields][] = [
    ['/webhooks', [['url', URL_IN]]],
    [`/webhooks/${id}/status`, [['status', 'disabled']]],
    [`/webhooks/${id}/events`, [['events', 'task.created']]],
    [`/webhooks/${id}/rotate`, [['grace_period_seconds', '0']]],
    [`/webhooks/${id}/test`, []],
    [`/webhooks/${id}/recover`, [['since', '2000-01-01T00:00']]],
    [`/webhooks/${id}/deliveries/${delivery}/replay`, []],
  ]
  const bob = await as('bob')
  const before = await state()
  for (const [path, fields] of forms) {
    for (const [what, form, headers] of [
      ['another origin', [['csrf', alice.csrf], ...fields], { origin: 'https://evil.example' }],
      ['a cross-site fetch', [['csrf', alice.csrf], ...fields], { 'sec-fetch-site': 'cross-site' }],
      ['no token', fields, { origin: alice.origin }],
      ["another session's token", [['csrf', bob.csrf], ...fields], { origin: alice.origin }],
    ] as [string, Fields, Record<string, string>][]) {
      const reply = await alice.post(path, form, headers)
      assert.equal(reply.status, 403, `${path}, ${what}`)
      assert.match(reply.body, /<h1>Form expired<\/h1>/, `${path}, ${what}`)
    }
  }
  assert.deepEqual(await state(), before)
})

test('disabling and enabling return with a notice; a test event needs it enabled', async () => {
  const alice = await as('alice')
  const id = await addEndpoint(alice)
  const disabled = await alice.submit(`/webhooks/${id}/status`, [['status', 'disabled']])
  assert.equal(disabled.status, 303, mainText(disabled.body))
  assert.equal(disabled.headers.location, `/webhooks/${id}?done=disabled`)
  assert.equal(disabled.headers['cache-control'], 'no-store')
  assert.equal((await endpointRow(id)).status, 'disabled')
  assert.equal((await endpointRow(id)).disabled_reason, 'disabled_by_owner')
  const page = await alice.get(String(disabled.headers.location))
  assert.equal(noticeOn(page.body), 'The endpoint is disabled; waiting deliveries were skipped.')
  assert.match(page.body, /<button type="submit">Enable<\/button>/)
  // A test event is refused while it is disabled: a 409 on the endpoint page, nothing queued.
  const refused = await alice.submit(`/webhooks/${id}/test`)
  assert.equal(refused.status, 409)
  assert.equal(alertOn(refused.body), 'The endpoint is disabled; enable it first.')
  assert.deepEqual(await deliveriesOf(id), [])
  const enabled = await alice.submit(`/webhooks/${id}/status`, [['status', 'active']])
  assert.equal(enabled.status, 303)
  assert.equal(enabled.headers.location, `/webhooks/${id}?done=enabled`)
  assert.equal((await endpointRow(id)).status, 'active')
  // A status the API does not know: a 400 on the endpoint page, nothing changed.
  const before = await state()
  const unknown = await alice.submit(`/webhooks/${id}/status`, [['status', 'paused']])
  assert.equal(unknown.status, 400)
  assert.equal(alertOn(unknown.body), 'The form has fields to correct.')
  assert.match(unknown.body, new RegExp(`<h1>${URL_IN}</h1>`))
  assert.deepEqual(await state(), before)
})

test('events are saved; none or an unknown one is a 400 by the events form', async () => {
  const alice = await as('alice')
  const id = await addEndpoint(alice)
  const saved = await alice.submit(`/webhooks/${id}/events`, [
    ['events', 'task.completed'],
    ['events', 'okr.checkin'],
  ])
  assert.equal(saved.status, 303, mainText(saved.body))
  assert.equal(saved.headers.location, `/webhooks/${id}?done=events`)
  assert.deepEqual([...(await endpointRow(id)).event_types].sort(), [
    'okr.checkin',
    'task.completed',
  ])
  const before = await state()
  for (const [what, fields] of [
    ['no event', []],
    ['an unknown event', [['events', 'task.exploded']]],
  ] as [string, Fields][]) {
    const reply = await alice.submit(`/webhooks/${id}/events`, fields)
    assert.equal(reply.status, 400, what)
    assert.match(reply.body, /<p class="error field-error" id="edit-events-error">/, what)
  }
  assert.deepEqual(await state(), before)
})

test('rotating shows a new secret once; again in the grace is a 409 unless forced', async () => {
  const alice = await as('alice')
  const id = await addEndpoint(alice)
  const original = await endpointRow(id)
  const rotated = await alice.submit(`/webhooks/${id}/rotate`, [['grace_period_seconds', '3600']])
  assert.equal(rotated.status, 200, mainText(rotated.body))
  assert.match(mainText(rotated.body), /^Signing secret The secret was rotated\./)
  assert.ok(secretOn(rotated.body))
  const after = await endpointRow(id)
  assert.notDeepEqual(after.secret_sealed, original.secret_sealed)
  assert.equal(after.previous_expires_at?.getTime(), t.clock.now().getTime() + 3_600_000)
  assert.ok(rotated.body.includes(after.previous_expires_at?.toISOString() as string))
  const before = await state()
  const again = await alice.submit(`/webhooks/${id}/rotate`, [['grace_period_seconds', '0']])
  assert.equal(again.status, 409)
  // The message says what to do on the form, not which JSON field the API takes.
  assert.match(alertOn(again.body) ?? '', /still in its grace period\. Tick “End the previous/)
  assert.doesNotMatch(alertOn(again.body) ?? '', /"force"/)
  for (const grace of ['-5', 'soon', '604801']) {
    const reply = await alice.submit(`/webhooks/${id}/rotate`, [['grace_period_seconds', grace]])
    assert.equal(reply.status, 400, grace)
    assert.match(reply.body, /<p class="error field-error" id="grace-error">/, grace)
  }
  assert.deepEqual(await state(), before)
  const forced = await alice.submit(`/webhooks/${id}/rotate`, [
    ['grace_period_seconds', '0'],
    ['force', 'true'],
  ])
  assert.equal(forced.status, 200, mainText(forced.body))
  assert.equal((await endpointRow(id)).previous_expires_at, null)
})

test('a test event is queued and listed, with its delivery page under its endpoint', async () => {
  const alice = await as('alice')
  const id = await addEndpoint(alice)
  const other = await addEndpoint(alice, 'https://hooks.example.test/other')
  const queued = await alice.submit(`/webhooks/${id}/test`)
  assert.equal(queued.status, 303)
  assert.equal(queued.headers.location, `/webhooks/${id}?done=test`)
  const [delivery] = await deliveriesOf(id)
  assert.equal(delivery?.event_type, 'webhook.test')
  assert.equal(delivery?.status, 'pending')
  const page = await alice.get(`/webhooks/${id}?done=test`)
  assert.equal(noticeOn(page.body), 'A test event was queued; reload to see its delivery.')
  const link = `/webhooks/${id}/deliveries/${delivery?.id}`
  assert.match(page.body, new RegExp(`<a href="${link}">webhook.test</a>`))
  const shown = await alice.get(link)
  assert.equal(shown.status, 200)
  assert.match(mainText(shown.body), /Delivery of webhook\.test Status pending/)
  assert.match(mainText(shown.body), /Attempts Not sent yet\.$/)
  assert.match(shown.body, new RegExp(`action="${link}/replay"`))
  // Under another endpoint's address, or unknown: the 404 page.
  for (const path of [
    `/webhooks/${other}/deliveries/${delivery?.id}`,
    `/webhooks/${id}/deliveries/dlv_${'0'.repeat(26)}`,
  ]) {
    const reply = await alice.get(path)
    assert.equal(reply.status, 404, path)
    assert.match(reply.body, /<h1>Page not found<\/h1>/)
  }
})

test('replaying a delivery queues it again and returns to it; not while disabled', async () => {
  const alice = await as('alice')
  const id = await addEndpoint(alice)
  const delivery = await testDelivery(alice, id)
  const path = `/webhooks/${id}/deliveries/${delivery}`
  const replayed = await alice.submit(`${path}/replay`)
  assert.equal(replayed.status, 303, mainText(replayed.body))
  assert.equal(replayed.headers.location, `${path}?done=replayed`)
  assert.equal(
    noticeOn((await alice.get(`${path}?done=replayed`)).body),
    'The delivery was queued again.',
  )
  const audit = await t.db.db
    .selectFrom('audit_log')
    .select(['via', 'diff'])
    .where('resource_id', '=', id)
    .where('action', '=', 'webhook.delivery_replayed')
    .execute()
  assert.equal(audit.length, 1)
  assert.equal(audit[0]?.via, 'web')
  // Replaying a delivery under another endpoint's address changes nothing.
  const other = await addEndpoint(alice, 'https://hooks.example.test/other')
  assert.equal((await alice.submit(`/webhooks/${other}/deliveries/${delivery}/replay`)).status, 404)
  assert.equal((await alice.submit(`/webhooks/${id}/status`, [['status', 'disabled']])).status, 303)
  const before = await state()
  const refused = await alice.submit(`${path}/replay`)
  assert.equal(refused.status, 409)
  assert.equal(alertOn(refused.body), 'The endpoint is disabled; enable it first.')
  assert.deepEqual(await state(), before)
})

test('recovering queues skipped deliveries again since a time; a bad time is a 400', async () => {
  const alice = await as('alice')
  const id = await addEndpoint(alice)
  const delivery = await testDelivery(alice, id)
  // Disabling skips what waits; enabled again, recovery queues it once more.
  await alice.submit(`/webhooks/${id}/status`, [['status', 'disabled']])
  await alice.submit(`/webhooks/${id}/status`, [['status', 'active']])
  const skipped = (await deliveriesOf(id)).find((row) => row.id === delivery)
  assert.equal(skipped?.status, 'skipped')
  const before = await state()
  for (const since of ['yesterday', '']) {
    const reply = await alice.submit(`/webhooks/${id}/recover`, [['since', since]])
    assert.equal(reply.status, 400, `since ${JSON.stringify(since)}`)
    assert.match(reply.body, /<p class="error field-error" id="since-error">/)
  }
  assert.deepEqual(await state(), before)
  const recovered = await alice.submit(`/webhooks/${id}/recover`, [['since', '2000-01-01T00:00']])
  assert.equal(recovered.status, 303, mainText(recovered.body))
  assert.equal(recovered.headers.location, `/webhooks/${id}?done=recovered`)
  const again = (await deliveriesOf(id)).find((row) => row.id === delivery)
  assert.equal(again?.status, 'pending')
})
