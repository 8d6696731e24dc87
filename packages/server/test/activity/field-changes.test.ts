import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.ts'
import { importOk, tokenOf, webhookBundle } from '../harness/bundles.ts'
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { type Receiver, reply, startReceiver } from '../harness/receiver.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// A reassignment says who it was from and to, in activity, the change feed and webhooks, and
// each reader is shown only the people it may see (docs/api.md, "Field changes"). Gus, a guest
// of the open project, sees himself and its owner Alice, never Bob or Olive.

let t: TestApp
let ws: ImportResult
let receiver: Receiver
let dispatcher: WebhookDispatcher
const id = (key: string) => ws.ids[key] as string
const as = (key: string) => client(t.app, tokenOf(ws, key))

before(async () => {
  t = await startTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' } })
  const bundle = webhookBundle()
  bundle.api_keys = [
    ...(bundle.api_keys ?? []),
    // Reads tasks and activity but not people: ids, never names.
    { key: 'alice-no-people', person: 'alice', scopes: ['task:read', 'activity:read'] },
  ]
  ws = await importOk(t.db.db, bundle)
  receiver = await startReceiver()
  receiver.fallback = reply(200, {}, 'ok')
  dispatcher = new WebhookDispatcher(t.deps, { random: () => 0.5 })
})
after(async () => {
  await dispatcher.stop(0)
  await receiver.close()
  await t.close()
})

type Entry = { verb: string; changes: Record<string, Record<string, unknown>> }

async function taskActivity(key: string): Promise<Entry[]> {
  const answer = await as(key).get(`/v1/activity?resource_id=${id('t-open')}`)
  assert.equal(answer.status, 200, answer.body)
  return answer.json.data.filter((entry: Entry) => entry.verb === 'task.updated')
}

async function taskChanges(key: string): Promise<{ body: string; changes: Entry['changes'][] }> {
  const answer = await as(key).get('/v1/changes?from=start&types=task.updated')
  assert.equal(answer.status, 200, answer.body)
  return {
    body: answer.body,
    changes: answer.json.data.map((change: { changes: Entry['changes'] }) => change.changes),
  }
}

test('a reassignment is a field change with names, shown only as far as its reader sees people', async () => {
  const endpoint = await as('gus-key').post('/v1/webhooks', {
    url: `${receiver.url}/gus`,
    events: ['task.updated'],
  })
  assert.equal(endpoint.status, 201, endpoint.body)

  // Gus to Bob, then Bob to Olive, with the due date moved in the same write.
  t.clock.advance(1000)
  const toBob = await as('alice-key').patch(`/v1/tasks/${id('t-open')}`, {
    assignee_id: id('bob'),
  })
  assert.equal(toBob.status, 200, toBob.body)
  t.clock.advance(1000)
  const toOlive = await as('alice-key').patch(`/v1/tasks/${id('t-open')}`, {
    assignee_id: id('olive'),
    due: '2026-12-15',
  })
  assert.equal(toOlive.status, 200, toOlive.body)

  // Alice sees everyone, by name.
  assert.deepEqual(
    (await taskActivity('alice-key')).map((entry) => entry.changes),
    [
      {
        assignee_id: {
          from: id('bob'),
          to: id('olive'),
          from_name: 'Bob Member',
          to_name: 'Olive Owner',
        },
        due: { from: '2026-12-01', to: '2026-12-15' },
      },
      {
        assignee_id: {
          from: id('gus'),
          to: id('bob'),
          from_name: 'Gus Guest',
          to_name: 'Bob Member',
        },
      },
    ],
  )
  // The feed carries the same changes.
  assert.deepEqual((await taskChanges('alice-key')).changes, [
    {
      assignee_id: {
        from: id('gus'),
        to: id('bob'),
        from_name: 'Gus Guest',
        to_name: 'Bob Member',
      },
    },
    {
      assignee_id: {
        from: id('bob'),
        to: id('olive'),
        from_name: 'Bob Member',
        to_name: 'Olive Owner',
      },
      due: { from: '2026-12-01', to: '2026-12-15' },
    },
  ])

  // A token that does not read people is told ids, and no names.
  assert.deepEqual(
    (await taskActivity('alice-no-people')).map((entry) => entry.changes.assignee_id),
    [
      { from: id('bob'), to: id('olive') },
      { from: id('gus'), to: id('bob') },
    ],
  )

  // Gus sees himself leave for someone he cannot see, and nothing of a change between two
  // people he cannot see: not their ids, not their names.
  const seenByGus = [
    {
      due: { from: '2026-12-01', to: '2026-12-15' },
    },
    {
      assignee_id: { from: id('gus'), to: null, from_name: 'Gus Guest', to_name: null },
    },
  ]
  const gusActivity = await as('gus-key').get(`/v1/activity?resource_id=${id('t-open')}`)
  assert.deepEqual(
    gusActivity.json.data
      .filter((entry: Entry) => entry.verb === 'task.updated')
      .map((entry: Entry) => entry.changes),
    seenByGus,
  )
  const gusFeed = await taskChanges('gus-key')
  assert.deepEqual(gusFeed.changes, [...seenByGus].reverse())
  for (const body of [gusActivity.body, gusFeed.body])
    for (const hidden of [id('bob'), id('olive'), 'Bob Member', 'Olive Owner'])
      assert.ok(!body.includes(hidden), `${hidden} is not shown to Gus`)

  // Gus's webhook: Stripe's previous_attributes beside the object, redacted as the object is.
  await dispatcher.drain()
  const heard = receiver.received
    .filter((request) => request.url.endsWith('/gus'))
    .map((request) => request.json.data)
  assert.deepEqual(
    heard.map((data) => [data.object.assignee_id, data.previous_attributes]),
    [
      [null, { assignee_id: id('gus') }],
      [null, { assignee_id: null, due: '2026-12-01' }],
    ],
  )
  for (const request of receiver.received)
    for (const hidden of [id('bob'), id('olive')])
      assert.ok(!request.raw.toString().includes(hidden), 'a delivery never names a hidden person')
})

test('an entry is not found by the id of a person in its changes', async () => {
  const found = await as('alice-key').post('/v1/search', {
    query: id('bob'),
    types: ['activity'],
  })
  assert.equal(found.status, 200, found.body)
  assert.deepEqual(found.json.results, [])
})

test('MCP activity and changes say on each line what changed, as far as the caller sees people', async () => {
  const text = async (key: string, tool: string, args: Record<string, unknown>) => {
    const answer = await callToolInProcess(t.app, tokenOf(ws, key), tool, args)
    assert.ok(!answer.isError, JSON.stringify(answer))
    return answer.content.map((part) => part.text ?? '').join('\n')
  }
  const byAlice = await text('alice-key', 'activity', { resource_id: id('t-open') })
  assert.match(byAlice, /assignee “Gus Guest” → “Bob Member”/)
  assert.match(byAlice, /due 2026-12-01 → 2026-12-15, assignee “Bob Member” → “Olive Owner”/)
  const followed = await text('alice-key', 'changes', { from: 'start', types: ['task.updated'] })
  assert.match(followed, /assignee “Gus Guest” → “Bob Member”/)
  const byGus = await text('gus-key', 'activity', { resource_id: id('t-open') })
  assert.match(byGus, /assignee “Gus Guest” → none/)
  for (const hidden of [id('bob'), id('olive'), 'Bob Member', 'Olive Owner'])
    assert.ok(!byGus.includes(hidden), `${hidden} is not shown to Gus`)
})
