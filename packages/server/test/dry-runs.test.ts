import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../src/bundle/import-bundle.ts'
import { importOk, tokenOf, webhookBundle } from './harness/bundles.ts'
import { tableSnapshot } from './harness/table-snapshot.ts'
import { client, type Reply, startTestApp, type TestApp } from './harness/test-app.ts'

let t: TestApp
let ws: ImportResult
const id = (key: string) => ws.ids[key] as string
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
