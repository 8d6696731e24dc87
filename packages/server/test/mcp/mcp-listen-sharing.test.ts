import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { numberCommittedChanges } from '../../src/writes/change-positions.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { listenerOn } from '../harness/mcp-listener.ts'
import { type ListeningTestApp, startListeningTestApp } from '../harness/oauth-flow.ts'
import { StatementLog } from '../harness/statement-log.ts'
import { client } from '../harness/test-app.ts'

// Change streams share the work (docs/mcp.md, "Following changes"): one read of the feed per
// change serves every stream of the process, and a client that leaves its stream unread is
// ended, told why, while the others go on hearing.

const log = new StatementLog()
let t: ListeningTestApp
let ws: ImportResult
before(async () => {
  t = await startListeningTestApp({ MCP_STREAM_UNREAD_TIMEOUT_MS: '500' }, { plugin: log })
  ws = await importOk(t.db.db, writableBundle())
})
type Listener = Awaited<ReturnType<typeof listenerOn>>
const opened: Listener[] = []
after(async () => {
  for (const { mcp } of opened) await mcp.close().catch(() => {})
  await t.close()
})

async function listen(key: string): Promise<Listener> {
  const listener = await listenerOn(t.origin, tokenOf(ws, key))
  opened.push(listener)
  await listener.mcp.listen({ resourceSubscriptions: ['workgraph://changes'] })
  return listener
}

// Reads of the feed's changes: the shared reader's, and a caller's own (`changes`, REST).
const feedReads = () =>
  log.statements.filter((s) => s === 'SelectQueryNode activity' || s.includes('with scanned as'))
    .length

test('ten streams of five people hear one change from one read of the feed', async () => {
  const listeners: Listener[] = []
  for (const key of ['olive-key', 'adam-key', 'alice-key', 'bob-key', 'gus-key'])
    for (let i = 0; i < 2; i++) listeners.push(await listen(key))
  log.clear()
  const made = await client(t.app, tokenOf(ws, 'alice-key')).post('/v1/tasks', {
    title: 'Heard by all',
    project_id: ws.ids.open,
  })
  assert.equal(made.status, 201, made.body)
  await Promise.all(listeners.map((listener) => listener.until(1)))
  for (const listener of listeners)
    assert.equal(listener.heard[0]?._meta?.['workgraph/changes']?.[0]?.title, 'Heard by all')
  assert.equal(feedReads(), 1, log.statements.join('\n'))
  for (const listener of listeners) await listener.mcp.close()
})

/** A stream whose client never reads: a raw request whose answer is left unread. */
async function unreadStream(key: string): Promise<Response> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'sleeper', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  }
  return fetch(`${t.origin}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tokenOf(ws, key)}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-method': 'subscriptions/listen',
      'mcp-protocol-version': '2026-07-28',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'listen:0',
      method: 'subscriptions/listen',
      params: { _meta: meta, notifications: { resourceSubscriptions: ['workgraph://changes'] } },
    }),
  })
}

// Many changes at once, as a burst of writes would make them: entries about one task.
async function burst(count: number) {
  await sql`
    insert into activity (workspace_id, id, verb, subject_id, subject_type, project_id, actor_id, created_at, changes)
    select ${ws.workspace_id}, 'act_' || lpad(to_hex(n), 26, '0'),
      'task.updated', ${ws.ids['t-open']}, 'task', ${ws.ids.open}, ${ws.ids.alice}, now(), '{}'::jsonb
    from generate_series(1, ${count}) n`.execute(t.db.db)
  t.deps.changeSignal.notify(ws.workspace_id)
}

test('a client that leaves its stream unread is ended and told why; the others hear on', async () => {
  const sleeper = await unreadStream('bob-key')
  assert.equal(sleeper.status, 200)
  await new Promise((resolve) => setTimeout(resolve, 200))
  // Far more than the connection holds: what is sent waits unread.
  await burst(30_000)
  await new Promise((resolve) => setTimeout(resolve, 1_500))
  // Numbered in passes of 10,000: a stream opened before the last pass would hear the rest.
  for (let pass = 0; pass < 4; pass++) await numberCommittedChanges(t.db.db, ws.workspace_id)
  // A client that reads hears what comes next at once, whatever the sleeper left unread.
  const awake = await listen('alice-key')
  const made = await client(t.app, tokenOf(ws, 'alice-key')).post('/v1/tasks', {
    title: 'After the burst',
    project_id: ws.ids.open,
  })
  assert.equal(made.status, 201, made.body)
  await awake.until(1)
  assert.equal(awake.heard[0]?._meta?.['workgraph/changes']?.[0]?.title, 'After the burst')
  // The sleeper's stream has ended: reading it now finds the reason, then its end.
  const text = await sleeper.text()
  assert.match(text, /workgraph\/ended/)
  assert.match(text, /left its updates unread/)
})
