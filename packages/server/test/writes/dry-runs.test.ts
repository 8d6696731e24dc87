import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, webhookBundle } from '../harness/bundles.ts'
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { tableSnapshot } from '../harness/table-snapshot.ts'
import { client, type Reply, startTestApp, type TestApp } from '../harness/test-app.ts'

let t: TestApp
let ws: ImportResult
const id = (key: string) => ws.ids[key] as string
let endpoint: string
let delivery: string
let spare: string
const as = (key: string) => client(t.app, tokenOf(ws, key))

// The writable workspace, with alice and bob also managing tokens and creating canvases.
before(async () => {
  t = await startTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' } })
  const bundle = webhookBundle()
  bundle.api_keys = (bundle.api_keys ?? []).map((key) =>
    key.key === 'alice-key' || key.key === 'bob-key'
      ? { ...key, scopes: [...key.scopes, 'token:manage', 'canvas:create'] }
      : key,
  )
  ws = await importOk(t.db.db, bundle)
  const hook = await as('alice-key').post('/v1/webhooks', {
    url: 'http://127.0.0.1:9999/hook',
    events: ['task.created'],
  })
  endpoint = hook.json.id
  delivery = (await as('alice-key').post(`/v1/webhooks/${endpoint}/test`)).json.id
  spare = (await as('alice-key').post('/v1/api-keys', { name: 'Spare', scopes: ['task:read'] }))
    .json.id
})
after(() => t.close())

type Method = 'POST' | 'PATCH' | 'DELETE'

/** One write to try: as whom, what, and a request that must fail the same way dry or real. */
interface WriteCase {
  name: string
  who: string
  method: Method
  url: () => string
  body?: () => unknown
  /** A refused variant: an invalid body, a hidden or unknown id. */
  refused: { who?: string; url?: () => string; body?: () => unknown }[]
}

function send(who: string, method: Method, url: string, body?: unknown): Promise<Reply> {
  return as(who).send({
    method,
    url,
    ...(body === undefined ? {} : { payload: body as object }),
  })
}

const withDryRun = (url: string, value = 'true') =>
  `${url}${url.includes('?') ? '&' : '?'}dry_run=${value}`

// Every string of the real answer that the dry run may answer as null: one naming an id or a
// secret that did not exist before the real write.
function isNewValue(value: unknown, before: string): boolean {
  if (typeof value !== 'string') return false
  if (/^(wg_key_|whsec_)/.test(value)) return true
  const ids = value.match(/\b[a-z]{2,4}_[0-9a-z]{26}\b/g) ?? []
  return ids.some((found) => !before.includes(found))
}

/** Asserts the dry result is the real one, but where the real one names something new. */
function assertSameButNew(dry: unknown, real: unknown, before: string, path = ''): void {
  if (dry === null && real !== null && (isNewValue(real, before) || path.endsWith('/last4'))) return
  if (dry !== null && typeof dry === 'object' && real !== null && typeof real === 'object') {
    assert.deepEqual(Object.keys(dry).sort(), Object.keys(real).sort(), `keys at ${path}`)
    for (const key of Object.keys(real))
      assertSameButNew(
        (dry as Record<string, unknown>)[key],
        (real as Record<string, unknown>)[key],
        before,
        `${path}/${key}`,
      )
    return
  }
  assert.deepEqual(dry, real, `at ${path}`)
}

const CASES: WriteCase[] = [
  {
    name: 'create a task',
    who: 'alice-key',
    method: 'POST',
    url: () => '/v1/tasks',
    body: () => ({ title: 'Dry task', project_id: id('open'), assignee_id: id('gus') }),
    refused: [
      { body: () => ({ title: '' }) },
      { who: 'bob-key', body: () => ({ title: 'x', project_id: id('secret') }) },
      { who: 'read-only-key', body: () => ({ title: 'x' }) },
    ],
  },
  {
    name: 'complete a task',
    who: 'alice-key',
    method: 'POST',
    url: () => `/v1/tasks/${id('t-secret')}/complete`,
    refused: [{ who: 'bob-key' }, { url: () => '/v1/tasks/tsk_nope/complete' }],
  },
  {
    name: 'comment',
    who: 'alice-key',
    method: 'POST',
    url: () => '/v1/comments',
    body: () => ({ resource_id: id('t-secret'), body: 'Looks good', parent_id: id('m1') }),
    refused: [
      { body: () => ({ resource_id: id('t-secret') }) },
      { who: 'bob-key', body: () => ({ resource_id: id('t-secret'), body: 'x' }) },
    ],
  },
  {
    name: 'check in on a key result',
    who: 'alice-key',
    method: 'POST',
    url: () => '/v1/okr/checkins',
    body: () => ({ key_result_id: id('kr1'), value: 55, confidence: 0.6, note: 'Better' }),
    refused: [
      { body: () => ({ key_result_id: id('kr1'), value: 'many' }) },
      { body: () => ({ key_result_id: 'kr_unknown', value: 1 }) },
    ],
  },
  {
    name: 'create a canvas',
    who: 'alice-key',
    method: 'POST',
    url: () => '/v1/canvases',
    body: () => ({ title: 'Dry canvas', project_id: id('secret') }),
    refused: [
      { body: () => ({ title: 'x', colour: 'red' }) },
      { who: 'bob-key', body: () => ({ title: 'x', project_id: id('secret') }) },
    ],
  },
  {
    name: 'change a canvas',
    who: 'alice-key',
    method: 'PATCH',
    url: () => `/v1/canvases/${id('plan')}`,
    body: () => ({ title: 'Launch plan, v2', links: [id('t-open'), id('t-secret')] }),
    refused: [{ body: () => ({}) }, { who: 'bob-key', body: () => ({ title: 'Mine now' }) }],
  },
  {
    name: 'search (a read: its answer inside the envelope)',
    who: 'alice-key',
    method: 'POST',
    url: () => '/v1/search',
    body: () => ({ query: 'secret' }),
    refused: [{ body: () => ({ query: 'x', max_tokens: 1 }) }],
  },
  {
    name: 'register a webhook endpoint (its secret is never made)',
    who: 'alice-key',
    method: 'POST',
    url: () => '/v1/webhooks',
    body: () => ({ url: 'http://127.0.0.1:9999/other', events: ['comment.created'] }),
    refused: [
      { body: () => ({ url: 'http://127.0.0.1:9999/other', events: ['task.deleted'] }) },
      { who: 'read-only-key' },
    ],
  },
  {
    name: 'change a webhook endpoint',
    who: 'alice-key',
    method: 'PATCH',
    url: () => `/v1/webhooks/${endpoint}`,
    body: () => ({ description: 'Dry runs too' }),
    refused: [{ body: () => ({}) }, { who: 'bob-key' }],
  },
  {
    name: "rotate an endpoint's secret",
    who: 'alice-key',
    method: 'POST',
    url: () => `/v1/webhooks/${endpoint}/rotate-secret`,
    body: () => ({ grace_period_seconds: 60 }),
    refused: [{ body: () => ({ grace_period_seconds: -1 }) }, { who: 'bob-key' }],
  },
  {
    name: 'send a test event',
    who: 'alice-key',
    method: 'POST',
    url: () => `/v1/webhooks/${endpoint}/test`,
    refused: [{ who: 'bob-key' }, { url: () => '/v1/webhooks/whk_unknown/test' }],
  },
  {
    name: 'replay a delivery',
    who: 'alice-key',
    method: 'POST',
    url: () => `/v1/webhooks/${endpoint}/deliveries/${delivery}/replay`,
    refused: [{ who: 'bob-key' }],
  },
  {
    name: 'recover deliveries',
    who: 'alice-key',
    method: 'POST',
    url: () => `/v1/webhooks/${endpoint}/recover`,
    body: () => ({ since: '2020-01-01T00:00:00Z' }),
    refused: [{ body: () => ({ since: 'yesterday' }) }, { who: 'bob-key' }],
  },
  {
    name: 'delete a webhook endpoint',
    who: 'alice-key',
    method: 'DELETE',
    url: () => `/v1/webhooks/${endpoint}`,
    refused: [{ who: 'bob-key' }],
  },
  {
    name: 'create an API key (its secret is never made)',
    who: 'alice-key',
    method: 'POST',
    url: () => '/v1/api-keys',
    body: () => ({ name: 'Agent', scopes: ['task:read', 'task:write'] }),
    refused: [
      { body: () => ({ name: 'Agent', scopes: ['audit:read'] }) },
      { who: 'read-only-key' },
    ],
  },
  {
    name: 'rotate an API key',
    who: 'alice-key',
    method: 'POST',
    url: () => `/v1/api-keys/${spare}/rotate`,
    body: () => ({ overlap_seconds: 60 }),
    refused: [{ who: 'bob-key' }, { body: () => ({ overlap_seconds: 'soon' }) }],
  },
  {
    name: 'revoke a token',
    who: 'alice-key',
    method: 'POST',
    url: () => `/v1/tokens/${spare}/revoke`,
    refused: [{ who: 'bob-key' }],
  },
]

for (const write of CASES) {
  test(`dry run: ${write.name} answers what the write would, and changes nothing`, async () => {
    const url = write.url()
    const body = write.body?.()
    const before = await tableSnapshot(t.db.db)
    const dry = await send(write.who, write.method, withDryRun(url), body)
    assert.equal(dry.status, 200, dry.body)
    assert.deepEqual(await tableSnapshot(t.db.db), before, 'a dry run changes no table')
    assert.equal(dry.json.dry_run, true)

    for (const refused of write.refused) {
      const who = refused.who ?? write.who
      const refusedUrl = refused.url?.() ?? url
      const refusedBody = refused.body ? refused.body() : body
      const dryRefusal = await send(who, write.method, withDryRun(refusedUrl), refusedBody)
      assert.deepEqual(await tableSnapshot(t.db.db), before, 'a refused dry run changes nothing')
      const realRefusal = await send(who, write.method, refusedUrl, refusedBody)
      assert.ok(realRefusal.status >= 400, realRefusal.body)
      assert.equal(dryRefusal.status, realRefusal.status, dryRefusal.body)
      assert.equal(dryRefusal.json.code, realRefusal.json.code)
    }

    const beforeText = JSON.stringify(before)
    const real = await send(write.who, write.method, url, body)
    assert.ok(real.status < 300, real.body)
    assertSameButNew(dry.json.result, real.json, beforeText)
    const after = await tableSnapshot(t.db.db)
    const added = (table: string) =>
      (after[table] ?? '')
        .split('\n')
        .filter((row) => row !== '' && !(before[table] ?? '').split('\n').includes(row))
        .map((row) => JSON.parse(row))
    const activity = added('activity')
    assert.equal(dry.json.activity.length, activity.length, 'one entry per activity row')
    assert.deepEqual(
      dry.json.activity.map((entry: { verb: string }) => entry.verb),
      activity.map((row: { verb: string }) => row.verb),
    )
    for (const entry of dry.json.activity) assert.equal(entry.id, null)
    const events = added('events')
    assert.deepEqual(
      dry.json.events.map((event: { type: string }) => event.type),
      events.map((row: { type: string }) => row.type),
    )
    for (const [i, event] of dry.json.events.entries())
      assertSameButNew(event.data, events[i].data, beforeText)
  })
}

test('an unknown OAuth grant is the same 404 dry or real', async () => {
  const url = '/v1/oauth-grants/grt_00000000000000000000000000/revoke'
  const dry = await as('alice-key').post(withDryRun(url))
  const real = await as('alice-key').post(url)
  assert.equal(real.status, 404)
  assert.equal(dry.status, real.status)
})

test('dry_run takes only true or false: anything else is a 400 that writes nothing', async () => {
  const before = await tableSnapshot(t.db.db)
  for (const query of ['dry_run=yes', 'dry_run=1', 'dry_run=', 'dry_run=true&dry_run=true']) {
    const reply = await as('alice-key').post(`/v1/tasks?${query}`, { title: 'Flagged' })
    assert.equal(reply.status, 400, `${query}: ${reply.body}`)
    assert.equal(reply.json.errors[0].path, '/query/dry_run')
  }
  assert.deepEqual(await tableSnapshot(t.db.db), before)
  const real = await as('alice-key').post('/v1/tasks?dry_run=false', { title: 'Not dry' })
  assert.equal(real.status, 201, real.body)
  assert.match(real.json.id, /^tsk_/)
  const unknown = await as('alice-key').post('/v1/tasks?dryrun=true', { title: 'Typo' })
  assert.equal(unknown.status, 422, 'an unknown query parameter is refused, never ignored')
})

test('a dry run neither reads nor claims the Idempotency-Key', async () => {
  const headers = { 'idempotency-key': `dry-${Date.now()}` }
  const body = { title: 'Keyed' }
  const before = await tableSnapshot(t.db.db)
  const dry = await as('alice-key').post('/v1/tasks?dry_run=true', body, headers)
  assert.equal(dry.status, 200)
  assert.deepEqual(await tableSnapshot(t.db.db), before, 'no key stored')
  const real = await as('alice-key').post('/v1/tasks', body, headers)
  assert.equal(real.status, 201, 'the key is still unused: the real write runs')
  assert.equal(real.headers['idempotent-replayed'], undefined)
  // After the real write, a dry run with the same key still runs (it does not replay).
  const again = await as('alice-key').post('/v1/tasks?dry_run=true', body, headers)
  assert.equal(again.status, 200)
  assert.equal(again.json.dry_run, true)
  assert.equal(again.headers['idempotent-replayed'], undefined)
})

test('a secret is never generated into the answer', async () => {
  const key = await as('alice-key').post('/v1/api-keys?dry_run=true', {
    name: 'Secretless',
    scopes: ['task:read'],
  })
  assert.equal(key.status, 200)
  assert.equal(key.json.result.token, null)
  assert.equal(key.json.result.last4, null)
  assert.equal(key.json.result.id, null)
  assert.doesNotMatch(key.body, /wg_key_/)
  const hook = await as('alice-key').post('/v1/webhooks?dry_run=true', {
    url: 'http://127.0.0.1:9999/secretless',
  })
  assert.equal(hook.status, 200, hook.body)
  assert.equal(hook.json.result.secret, null)
  assert.doesNotMatch(hook.body, /whsec_/)
})

test('MCP write tools take dry_run: the answer the tool would give, nothing written', async () => {
  const token = tokenOf(ws, 'alice-key')
  const before = await tableSnapshot(t.db.db)
  const dry = await callToolInProcess(t.app, token, 'create_task', {
    title: 'Tool dry run',
    project_id: id('open'),
    idempotency_key: 'tool-dry-1',
    dry_run: true,
  })
  assert.equal(dry.isError ?? false, false, JSON.stringify(dry.content))
  assert.deepEqual(await tableSnapshot(t.db.db), before)
  const facts = dry.structuredContent as Record<string, unknown>
  assert.equal(facts.dry_run, true)
  assert.equal(facts.id, null)
  assert.equal(facts.url, null)
  assert.equal(facts.title, 'Tool dry run')
  assert.deepEqual(
    (facts.events as { type: string }[]).map((event) => event.type),
    ['task.created'],
  )
  assert.match(JSON.stringify(dry.content), /nothing was written/)
  const refused = await callToolInProcess(t.app, token, 'update_task', {
    task_id: 'tsk_00000000000000000000000000',
    status: 'done',
    dry_run: true,
  })
  assert.equal(refused.isError, true)
  // The key was not claimed: the real call with it creates the task.
  const real = await callToolInProcess(t.app, token, 'create_task', {
    title: 'Tool dry run',
    project_id: id('open'),
    idempotency_key: 'tool-dry-1',
  })
  assert.equal((real.structuredContent as { replayed: boolean }).replayed, false)
  assert.match(String((real.structuredContent as { id: string }).id), /^tsk_/)
})

test('a dry-run revocation leaves the token working', async () => {
  const key = await as('alice-key').post('/v1/api-keys', { name: 'Kept', scopes: ['task:read'] })
  assert.equal(key.status, 201)
  const dry = await as('alice-key').post(`/v1/tokens/${key.json.id}/revoke?dry_run=true`)
  assert.equal(dry.status, 200, dry.body)
  assert.equal(dry.json.result.status, 'revoked', 'the answer says what the write would do')
  assert.equal((await client(t.app, key.json.token).get('/v1/tasks')).status, 200)
})
