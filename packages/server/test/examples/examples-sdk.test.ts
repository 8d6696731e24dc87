import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import type { WorkgraphEvent } from '@workgraph/sdk'
import { runAgent } from '../../../../examples/agent/agent.ts'
import { buildReceiver } from '../../../../examples/webhook-receiver/receiver.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.ts'
import { type ListeningApp, startListeningApp } from '../harness/browser-app.ts'
import { importOk, tokenOf, webhookBundle } from '../harness/bundles.ts'

// The examples in examples/ run against the real server, as a reader would run them.
let t: ListeningApp
let ws: ImportResult
before(async () => {
  t = await startListeningApp({ WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' })
  ws = await importOk(t.db.db, webhookBundle())
  await t.db.db
    .updateTable('tasks')
    .set({ status: 'blocked' })
    .where('id', '=', ws.ids['t-secret'] as string)
    .execute()
})
after(() => t.close())

test('the agent finds blocked work, cites a summary and writes one follow-up, even when rerun', async () => {
  const options = {
    apiKey: tokenOf(ws, 'alice-key'),
    baseUrl: t.origin,
    question: 'what is blocked?',
  }
  const report = await runAgent(options)
  assert.equal(report.found[0]?.id, ws.ids['t-secret'])
  assert.match(report.summary ?? '', /Blocked: “Secret task” \[\d\]/)
  assert.equal(report.followUp?.title, 'Follow up: Secret task')
  const again = await runAgent(options)
  assert.equal(again.followUp?.id, report.followUp?.id)
  const followUps = await t.db.db
    .selectFrom('tasks')
    .where('title', '=', 'Follow up: Secret task')
    .select(['project_id'])
    .execute()
  assert.deepEqual(followUps, [{ project_id: ws.ids.secret }])
})

test('the agent sees only what its token may open', async () => {
  const report = await runAgent({ apiKey: tokenOf(ws, 'gus-key'), baseUrl: t.origin })
  assert.ok(report.found.every((hit) => hit.id !== ws.ids['t-secret']))
})

test('the webhook receiver accepts signed deliveries once and refuses forged ones', async () => {
  const events: WorkgraphEvent[] = []
  const secrets: string[] = []
  const receiver = buildReceiver({ secrets, onEvent: (event) => void events.push(event) })
  await receiver.listen({ port: 0, host: '127.0.0.1' })
  const url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/workgraph`
  const dispatcher = new WebhookDispatcher(t.deps, { random: () => 0.5, timeoutMs: 2000 })
  try {
    // The test clock stands still: move it, so that earlier tests' events predate the endpoint.
    t.clock.advance(1000)
    const created = await fetch(`${t.origin}/v1/webhooks`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokenOf(ws, 'alice-key')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ url, events: ['task.created'] }),
    })
    const endpoint = (await created.json()) as { id: string; secret: string }
    secrets.push(endpoint.secret)
    t.clock.advance(1000)
    await fetch(`${t.origin}/v1/tasks`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokenOf(ws, 'alice-key')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ title: 'Heard by the receiver', project_id: ws.ids.open }),
    })
    await dispatcher.drain()
    assert.deepEqual(
      events.map((event) => [event.type, event.data.object.id.slice(0, 4)]),
      [['task.created', 'tsk_']],
    )
    const [event] = events
    assert.ok(event?.type === 'task.created')
    assert.equal(event.data.object.title, 'Heard by the receiver')

    // The same delivery replayed: 2xx, handled once.
    const log = await fetch(`${t.origin}/v1/webhooks/${endpoint.id}/deliveries`, {
      headers: { authorization: `Bearer ${tokenOf(ws, 'alice-key')}` },
    })
    const [delivery] = ((await log.json()) as { data: { id: string; status: string }[] }).data
    assert.equal(delivery?.status, 'succeeded')
    await fetch(`${t.origin}/v1/webhooks/${endpoint.id}/deliveries/${delivery?.id}/replay`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenOf(ws, 'alice-key')}` },
    })
    t.clock.advance(1000)
    await dispatcher.drain()
    assert.equal(events.length, 1)

    // A forged body with a made-up signature is a 400 and never reaches the handler.
    const forged = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-signature': 'a'.repeat(64) },
      body: JSON.stringify({ ...event, id: 'evt_forged' }),
    })
    assert.equal(forged.status, 400)
    assert.deepEqual(await forged.json(), { refused: 'bad_signature' })
    assert.equal(events.length, 1)
  } finally {
    await dispatcher.stop(0)
    await receiver.close()
  }
})
