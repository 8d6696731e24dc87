import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { EVENT_TYPES } from '../../../src/catalogue/verbs.ts'
import { WebhookDispatcher } from '../../../src/webhooks/webhook-dispatcher.ts'
import {
  type ListeningApp,
  launchChromium,
  newContext,
  seriousViolations,
  signIn,
  startListeningApp,
} from '../../harness/browser-app.ts'
import { importOk, smallBundle, tokenOf } from '../../harness/bundles.ts'
import { type Receiver, reply, startReceiver } from '../../harness/receiver.ts'
import { client } from '../../harness/test-app.ts'

// The webhook and audit pages in Debian's chromium against the real app, with a local receiver.
// Screenshots: every-page.test.ts.

const PASSWORD = 'a long test passphrase'
let t: ListeningApp
let browser: Browser
let ws: ImportResult
let receiver: Receiver
let dispatcher: WebhookDispatcher

before(async () => {
  t = await startListeningApp({ WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' })
  const bundle = smallBundle()
  bundle.people = bundle.people.map((person) => ({ ...person, password: PASSWORD }))
  bundle.api_keys?.push({ key: 'olive-writer', person: 'olive', scopes: ['task:write'] })
  ws = await importOk(t.db.db, bundle)
  receiver = await startReceiver()
  dispatcher = new WebhookDispatcher(t.deps, { random: () => 0.5, timeoutMs: 2000 })
  browser = await launchChromium()
})
after(async () => {
  await browser?.close()
  await dispatcher?.stop(0)
  await receiver?.close()
  await t?.close()
})

async function check(page: Page, name: string) {
  assert.deepEqual(await seriousViolations(page), [], `${name}: ${page.url()}`)
  assert.equal(await page.locator('h1').count(), 1, `${name} has one h1`)
}

async function signedIn(email: string) {
  const context = await newContext(browser, { bypassCSP: true })
  const page = await context.newPage()
  await page.goto(`${t.origin}/webhooks`)
  await signIn(page, email, PASSWORD)
  return { context, page }
}

async function submit(page: Page, button: string) {
  const [response] = await Promise.all([
    page.waitForNavigation(),
    page.getByRole('button', { name: button, exact: true }).click(),
  ])
  return response
}

const endpointRow = (id: string) =>
  t.db.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

test('webhooks: create, test event, delivery log, replay, disable, enable, rotate', async () => {
  const { context, page } = await signedIn('olive@example.test')
  assert.equal(new URL(page.url()).pathname, '/webhooks')
  await check(page, 'webhooks')
  await page.getByLabel('URL').fill(receiver.url)
  await page.getByLabel('comment.created').uncheck()
  await page.getByLabel('Description (optional)').fill('CI <receiver>')
  const created = await submit(page, 'Add endpoint')
  assert.equal(created?.status(), 201)
  const secret = (await page.locator('#secret').textContent()) ?? ''
  assert.match(secret, /^whsec_/)
  await check(page, 'webhook-secret')
  await page.getByRole('link', { name: 'Go to the endpoint' }).click()
  const id = new URL(page.url()).pathname.split('/')[2] as string
  const row = await endpointRow(id)
  assert.equal(row.owner_id, ws.ids.olive)
  assert.equal(row.credential_id, ws.ids.olive, 'bound to the person, not to the session')
  assert.ok(!row.event_types.includes('comment.created'))

  await submit(page, 'Send a test event')
  assert.match((await page.getByRole('status').textContent()) ?? '', /test event was queued/)
  await dispatcher.drain()
  assert.equal(receiver.received.length, 1)
  assert.equal(receiver.received[0]?.json.type, 'webhook.test')
  await page.reload()
  await page.getByRole('link', { name: 'webhook.test' }).click()
  assert.equal(await page.locator('h3').first().textContent(), 'Attempt 1 (auto)')
  const headers = (await page.locator('pre.bytes').first().textContent()) ?? ''
  assert.ok(headers.includes('x-service-signature:'), 'request headers shown')
  // The body indented for reading, and the exact bytes (what the signature covers) beside it.
  const raw = receiver.received[0]?.raw.toString('utf8') ?? '-'
  const indented = JSON.stringify(JSON.parse(raw), null, 2)
  assert.equal(await page.locator('pre.bytes').nth(1).textContent(), indented)
  assert.equal(await page.locator('details pre.bytes').first().textContent(), raw, 'exact body')
  assert.match(
    (await page.locator('time').first().getAttribute('datetime')) ?? '',
    /T\d\d:\d\d:\d\d(\.\d+)?Z$/,
  )
  assert.match((await page.locator('main time').last().textContent()) ?? '', /:\d\d:\d\d UTC$/)
  assert.equal(await page.locator('h4', { hasText: 'Response 200' }).count(), 1)
  assert.equal(await page.locator('pre.bytes').nth(3).textContent(), 'ok')
  await check(page, 'webhook-delivery')

  receiver.script(reply(500, {}, '<b>down</b>'))
  await submit(page, 'Replay this delivery')
  assert.match((await page.getByRole('status').textContent()) ?? '', /queued again/)
  await dispatcher.drain()
  await page.reload()
  assert.deepEqual(await page.locator('h3').allTextContents(), [
    'Attempt 1 (auto)',
    'Attempt 2 (replay)',
  ])
  assert.equal(await page.locator('pre.bytes').nth(7).textContent(), '<b>down</b>', 'escaped')
  assert.equal(await page.locator('main b').count(), 0)
  assert.equal(receiver.received.length, 2)
  assert.equal(receiver.received[1]?.json.id, receiver.received[0]?.json.id)

  await page.getByRole('link', { name: receiver.url }).click()
  await check(page, 'webhook')
  await submit(page, 'Disable')
  assert.equal((await endpointRow(id)).status, 'disabled')
  assert.equal((await endpointRow(id)).disabled_reason, 'disabled_by_owner')
  await submit(page, 'Enable')
  assert.equal((await endpointRow(id)).status, 'active')
  assert.equal((await endpointRow(id)).credential_id, ws.ids.olive)

  await page.getByLabel('Keep the previous secret signing for').selectOption('3600')
  await submit(page, 'Rotate secret')
  const rotated = (await page.locator('#secret').textContent()) ?? ''
  assert.match(rotated, /^whsec_/)
  assert.notEqual(rotated, secret)
  const afterRotation = await endpointRow(id)
  assert.ok(afterRotation.previous_expires_at)
  // Rotating again during the overlap is the API's 409, shown beside the form; nothing changes.
  await page.getByRole('link', { name: 'Go to the endpoint' }).click()
  const again = await submit(page, 'Rotate secret')
  assert.equal(again?.status(), 409)
  const conflict = (await page.getByRole('alert').textContent()) ?? ''
  assert.match(conflict, /^The previous secret is still in its grace period\. Tick “End/)
  assert.doesNotMatch(conflict, /"force"/)
  assert.equal((await endpointRow(id)).secret_sealed, afterRotation.secret_sealed)
  // The box sits in its label, so its words name it; ticked, the rotation goes through.
  await page.getByRole('checkbox', { name: /End the previous secret now/ }).check()
  await submit(page, 'Rotate secret')
  assert.match((await page.locator('#secret').textContent()) ?? '', /^whsec_/)
  assert.notEqual((await endpointRow(id)).secret_sealed, afterRotation.secret_sealed)
  await page.getByRole('link', { name: 'Go to the endpoint' }).click()

  // Recover since a time: the failed replay run is queued again.
  await page.getByLabel('Since (UTC)').fill('2000-01-01T00:00')
  await submit(page, 'Recover deliveries')
  assert.match((await page.getByRole('status').textContent()) ?? '', /queued again/)

  // Signing out ends the session, not the endpoint.
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL(/\/sign-in$/)
  assert.equal((await endpointRow(id)).status, 'active')
  await dispatcher.drain()
  assert.equal((await endpointRow(id)).status, 'active', 'still active after a dispatcher round')
  // And it still receives the workspace's events: a task made through the API reaches it.
  const seen = receiver.received.length
  const task = await client(t.app, tokenOf(ws, 'olive-writer')).post('/v1/tasks', {
    title: 'Made after the dashboard session ended',
    project_id: ws.ids.open,
  })
  assert.equal(task.status, 201, task.body)
  await dispatcher.drain()
  const types = receiver.received.slice(seen).map((r) => r.json.type)
  assert.ok(types.includes('task.created'), `delivered after sign-out: ${types.join(', ')}`)
  await context.close()
})

test('bad input gives a 4xx page with the error by its field, and changes nothing', async () => {
  const { context, page } = await signedIn('alice@example.test')
  const count = async () =>
    (await t.db.db.selectFrom('webhook_endpoints').select('id').execute()).length
  const before = await count()
  await page.getByLabel('URL').fill('http://example.com/hook')
  const refused = await submit(page, 'Add endpoint')
  assert.equal(refused?.status(), 422)
  assert.equal(await page.locator('#url').getAttribute('aria-invalid'), 'true')
  assert.ok(((await page.locator('#url-error').textContent()) ?? '').length > 0)
  assert.equal(await page.getByLabel('URL').inputValue(), 'http://example.com/hook')
  for (const type of EVENT_TYPES) await page.getByLabel(type).uncheck()
  await page.getByLabel('URL').fill(receiver.url)
  const noEvents = await submit(page, 'Add endpoint')
  assert.equal(noEvents?.status(), 400)
  assert.ok(((await page.locator('#new-events-error').textContent()) ?? '').length > 0)
  assert.equal(await count(), before)
  await context.close()
})

test('the audit page filters by action and actor and shows diffs; writes are via web', async () => {
  const { context, page } = await signedIn('adam@example.test')
  await page.getByLabel('URL').fill(receiver.url)
  await submit(page, 'Add endpoint')
  await page.goto(`${t.origin}/audit`)
  await check(page, 'audit')
  const all = await page.locator('section.audit-entry').count()
  await page.getByLabel('Action').selectOption('webhook.created')
  await submit(page, 'Filter')
  assert.equal(new URL(page.url()).searchParams.get('action'), 'webhook.created')
  const created = await page.locator('section.audit-entry').count()
  assert.ok(created >= 2 && created < all, `${created} of ${all}`)
  await page.getByLabel('Who').selectOption({ label: 'Adam Admin' })
  await submit(page, 'Filter')
  const mine = page.locator('section.audit-entry')
  assert.equal(await mine.count(), 1)
  // Adam's own endpoint is his to open: its diff is shown; the entry came through the dashboard.
  assert.equal(await mine.locator('dd').nth(1).textContent(), 'Adam Admin')
  assert.match((await mine.locator('dd').nth(2).textContent()) ?? '', /^web, dashboard session/)
  const diff = mine.locator('table')
  assert.equal(await diff.locator('th[scope=row]', { hasText: 'url' }).count(), 1)
  assert.ok(((await diff.textContent()) ?? '').includes(receiver.url))
  // Olive's endpoint (the first test) is listed for the admin but withheld: not his to open.
  await page.goto(`${t.origin}/audit?action=webhook.created&actor_id=${ws.ids.olive}`)
  const olive = page.locator('section.audit-entry').first()
  assert.match((await olive.textContent()) ?? '', /withheld/)
  assert.equal(await olive.locator('table').count(), 0)
  const bad = await page.goto(`${t.origin}/audit?since=yesterday`)
  assert.equal(bad?.status(), 400)
  assert.equal(await page.locator('#since').getAttribute('aria-invalid'), 'true')
  await context.close()
})

test('a member has no audit page: no link, and a 403 page', async () => {
  const { context, page } = await signedIn('bob@example.test')
  assert.equal(await page.getByRole('link', { name: 'Audit log' }).count(), 0)
  assert.equal(await page.getByRole('link', { name: 'Webhooks' }).count(), 1)
  const response = await page.goto(`${t.origin}/audit`)
  assert.equal(response?.status(), 403)
  assert.equal(await page.locator('section.audit-entry').count(), 0)
  await check(page, 'audit-forbidden')
  await context.close()
})

test('a forged CSRF token is refused with a 403 page and changes nothing', async () => {
  const { context, page } = await signedIn('alice@example.test')
  await page.getByLabel('URL').fill(receiver.url)
  await submit(page, 'Add endpoint')
  await page.getByRole('link', { name: 'Go to the endpoint' }).click()
  const id = new URL(page.url()).pathname.split('/')[2] as string
  await page
    .locator(`form[action="/webhooks/${id}/status"] input[name=csrf]`)
    .evaluate((input) => input.setAttribute('value', 'forged'))
  const refused = await submit(page, 'Disable')
  assert.equal(refused?.status(), 403)
  assert.equal((await endpointRow(id)).status, 'active')
  // Someone else's endpoint is the same 404 as an unknown one.
  const { context: other, page: bob } = await signedIn('bob@example.test')
  const hidden = await bob.goto(`${t.origin}/webhooks/${id}`)
  const unknown = await bob.goto(`${t.origin}/webhooks/whk_00000000000000000000000000`)
  assert.equal(hidden?.status(), 404)
  assert.equal(unknown?.status(), 404)
  await other.close()
  await context.close()
})
