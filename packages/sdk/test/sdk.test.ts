import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../server/src/bundle/import-bundle.ts'
import { WebhookDispatcher } from '../../server/src/webhooks/webhook-dispatcher.ts'
import { type ListeningApp, startListeningApp } from '../../server/test/harness/browser-app.ts'
import { importOk, tokenOf, webhookBundle } from '../../server/test/harness/bundles.ts'
import { type Receiver, startReceiver } from '../../server/test/harness/receiver.ts'
import {
  type DryRun,
  type Task,
  verifyWebhook,
  WebhookVerificationError,
  Workgraph,
  WorkgraphError,
} from '../src/index.ts'

// The SDK against the real server over HTTP: every call below crosses a socket.
let t: ListeningApp
let ws: ImportResult
let receiver: Receiver
let dispatcher: WebhookDispatcher
const sdk = (key = 'alice-key') => new Workgraph({ apiKey: tokenOf(ws, key), baseUrl: t.origin })

before(async () => {
  t = await startListeningApp({ WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' })
  ws = await importOk(t.db.db, webhookBundle())
  receiver = await startReceiver()
  dispatcher = new WebhookDispatcher(t.deps, { random: () => 0.5 })
})
after(async () => {
  await dispatcher.stop(0)
  await receiver.close()
  await t.close()
})

test('a list pages by itself: iteration crosses pages; firstPage gives one page and its cursor', async () => {
  const wg = sdk()
  for (let i = 0; i < 5; i++)
    await wg.tasks.create({ title: `Paged ${i}`, project_id: ws.ids.open })
  const titles: string[] = []
  for await (const task of wg.tasks.list({ project_id: ws.ids.open, limit: 2 }))
    titles.push(task.title)
  assert.equal(titles.length, 6)
  assert.equal(new Set(titles).size, 6)
  const page = await wg.tasks.list({ project_id: ws.ids.open, limit: 2 }).firstPage()
  assert.equal(page.data.length, 2)
  assert.equal(typeof page.next_cursor, 'string')
  const rest = []
  for await (const more of wg.tasks
    .list({ limit: 2, project_id: ws.ids.open })
    .pages(page.next_cursor ?? undefined))
    rest.push(...more.data)
  assert.equal(rest.length, 4)
})

test('one status or several filter tasks', async () => {
  const wg = sdk()
  const single = await wg.tasks.list({ status: ['in_progress'] }).toArray()
  assert.deepEqual(
    single.map((task) => task.title),
    ['Secret task'],
  )
  const both = await wg.tasks.list({ status: ['in_progress', 'todo'], limit: 100 }).toArray()
  assert.ok(both.length > single.length)
})

test('writes: create, change and complete a task, comment, check in, with the answers typed', async () => {
  const wg = sdk()
  const task: Task = await wg.tasks.create({ title: 'SDK task', project_id: ws.ids.open })
  assert.equal(task.status, 'todo')
  const moved: Task = await wg.tasks.update(task.id, { due: '2026-12-24', status: 'blocked' })
  assert.deepEqual([moved.due, moved.status], ['2026-12-24', 'blocked'])
  const done = await wg.tasks.complete(task.id)
  assert.equal(done.status, 'done')
  assert.ok(done.completed_at)
  const comment = await wg.comments.create({ resource_id: task.id, body: 'From the SDK' })
  assert.equal(comment.resource_id, task.id)
  const checkin = await wg.okrs.checkin({ key_result_id: ws.ids.kr1 as string, value: 41 })
  assert.equal(checkin.key_result.current, 41)
})

test('dryRun: the answer a write would give, typed, and nothing written', async () => {
  const wg = sdk()
  const count = async () =>
    (await t.db.db.selectFrom('tasks').where('title', '=', 'Dry SDK').select('id').execute()).length
  const dry: DryRun<Task> = await wg.tasks.create(
    { title: 'Dry SDK', project_id: ws.ids.open },
    { dryRun: true },
  )
  assert.equal(dry.dry_run, true)
  assert.equal(dry.result.id, null)
  assert.equal(dry.result.title, 'Dry SDK')
  assert.deepEqual(
    dry.activity.map((entry) => entry.verb),
    ['task.created'],
  )
  assert.deepEqual(
    dry.events.map((event) => event.type),
    ['task.created'],
  )
  assert.equal(await count(), 0)
  const refused = await wg.tasks
    .complete('tsk_00000000000000000000000000', { dryRun: true })
    .catch((error: unknown) => error)
  assert.ok(refused instanceof WorkgraphError)
  assert.equal(refused.status, 404)
  // Without the option, the same call writes and answers the record.
  const task: Task = await wg.tasks.create({ title: 'Dry SDK', project_id: ws.ids.open })
  assert.match(task.id, /^tsk_/)
  assert.equal(await count(), 1)
})

test('the same idempotency key twice gives the first answer, and one task', async () => {
  const wg = sdk()
  const key = `sdk-test-${Date.now()}`
  const first = await wg.tasks.create(
    { title: 'Once', project_id: ws.ids.open },
    { idempotencyKey: key },
  )
  const again = await wg.tasks.create(
    { title: 'Once', project_id: ws.ids.open },
    { idempotencyKey: key },
  )
  assert.equal(again.id, first.id)
  const rows = await t.db.db.selectFrom('tasks').where('title', '=', 'Once').select('id').execute()
  assert.equal(rows.length, 1)
})

test('reads: search, any record, a summary within its budget, activity, what needs attention', async () => {
  const wg = sdk()
  const hits = await wg.search({ query: 'secret task', types: ['task'], limit: 5 })
  assert.equal(hits.results[0]?.id, ws.ids['t-secret'])
  const record = await wg.resources.get(ws.ids['t-secret'] as string)
  assert.equal(record.type, 'task')
  const summary = await wg.resources.summary(ws.ids.secret as string, { max_tokens: 300 })
  assert.ok(summary.budget.used_tokens <= 300)
  const compact = await wg.resources.summary(ws.ids.secret as string, { format: 'compact' })
  const full = await wg.resources.summary(ws.ids.secret as string)
  assert.deepEqual(
    compact.sources,
    full.sources.map((source) => source.id),
  )
  const entries = await wg.activity.list({ project_id: ws.ids.open, limit: 3 }).toArray(5)
  assert.ok(entries.length > 0)
  assert.ok(entries.every((entry) => entry.project_id === ws.ids.open))
  const attention = await wg.attention({ for: ws.ids.open, max_tokens: 400 })
  assert.equal(attention.id, ws.ids.open)
  assert.ok(attention.budget.used_tokens <= 400)
})

test('errors are WorkgraphError with status, code, detail, request id and field errors', async () => {
  const wg = sdk()
  const missing = await wg.resources.get('tsk_nope').catch((error: unknown) => error)
  assert.ok(missing instanceof WorkgraphError)
  assert.equal(missing.status, 404)
  assert.equal(missing.code, 'not_found')
  assert.match(missing.requestId ?? '', /\S/)
  // A hidden resource is the same 404 as a missing one, through the SDK too.
  const hidden = await sdk('gus-key')
    .resources.get(ws.ids['t-secret'] as string)
    .catch((e: unknown) => e)
  assert.ok(hidden instanceof WorkgraphError)
  assert.equal(hidden.detail, missing.detail)
  const invalid = await wg.tasks.create({ title: '', due: 'someday' }).catch((e: unknown) => e)
  assert.ok(invalid instanceof WorkgraphError)
  assert.equal(invalid.status, 422)
  assert.equal(invalid.code, 'validation_failed')
  assert.ok(invalid.errors.some((error) => error.path === '/title'))
  const narrow = await sdk('read-only-key')
    .tasks.create({ title: 'x' })
    .catch((e: unknown) => e)
  assert.ok(narrow instanceof WorkgraphError)
  assert.equal(narrow.code, 'insufficient_scope')
  assert.deepEqual(narrow.requiredScopes, ['task:write'])
})

test('webhooks: create, a real delivery verifies; a tampered, unsigned or stale one is refused; replay', async () => {
  const wg = sdk()
  // The test clock stands still: move it, so that earlier tests' events predate the endpoint.
  t.clock.advance(1000)
  const endpoint = await wg.webhooks.create({ url: receiver.url, events: ['task.created'] })
  assert.match(endpoint.secret, /^whsec_/)
  const task = await wg.tasks.create({ title: 'Announce me', project_id: ws.ids.open })
  await dispatcher.drain()
  const got = receiver.received.find((r) => r.json?.data?.object?.id === task.id)
  assert.ok(got, 'the receiver got the event')
  const headers = got.headers as Record<string, string>
  const event = verifyWebhook(got.raw, headers, endpoint.secret)
  assert.equal(event.type, 'task.created')
  if (event.type === 'task.created') assert.equal(event.data.object.title, 'Announce me')
  // The secret as a list (rotation), and the body as a string, verify too.
  verifyWebhook(got.raw.toString('utf8'), new Headers(headers), ['whsec_old', endpoint.secret])

  const refusal = (fn: () => unknown) => {
    try {
      fn()
    } catch (error) {
      assert.ok(error instanceof WebhookVerificationError)
      return error.reason
    }
    return 'accepted'
  }
  const tampered = Buffer.from(got.raw.toString('utf8').replace('Announce me', 'Announce it'))
  assert.equal(
    refusal(() => verifyWebhook(tampered, headers, endpoint.secret)),
    'bad_signature',
  )
  assert.equal(
    refusal(() => verifyWebhook(got.raw, headers, 'whsec_other')),
    'bad_signature',
  )
  assert.equal(
    refusal(() => verifyWebhook(got.raw, {}, endpoint.secret)),
    'missing_signature',
  )
  const later = event.delivery.sent_at + 301
  assert.equal(
    refusal(() => verifyWebhook(got.raw, headers, endpoint.secret, { now: later })),
    'stale',
  )

  const delivery = (await wg.webhooks.deliveries(endpoint.id).toArray()).find(
    (listed) => listed.id === event.delivery.id,
  )
  assert.ok(delivery)
  const replayed = await wg.webhooks.replay(endpoint.id, delivery.id)
  assert.equal(replayed.id, delivery.id)
  t.clock.advance(1000)
  await dispatcher.drain()
  assert.equal(receiver.received.filter((r) => r.json?.data?.object?.id === task.id).length, 2)
})

test('a token may be a function, asked before every call', async () => {
  let asked = 0
  const wg = new Workgraph({
    apiKey: async () => {
      asked++
      return tokenOf(ws, 'alice-key')
    },
    baseUrl: `${t.origin}/`,
  })
  await wg.projects.list().firstPage()
  await wg.workspace.get()
  assert.equal(asked, 2)
})
