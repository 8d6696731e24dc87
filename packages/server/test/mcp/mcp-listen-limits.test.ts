import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { ALL_READ_SCOPES, importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { listenerOn } from '../harness/mcp-listener.ts'
import { type ListeningTestApp, startListeningTestApp } from '../harness/oauth-flow.ts'
import { client } from '../harness/test-app.ts'

// Change streams are counted per key, per person, per workspace and per process
// (docs/mcp.md, "Following changes"): keys are free to make, so one person with many keys must
// not take every stream of the process. The limits are lowered here to keep the test small.

let t: ListeningTestApp
let ws: ImportResult
let other: ImportResult
before(async () => {
  t = await startListeningTestApp({
    MCP_STREAMS_PER_PERSON: '3',
    MCP_STREAMS_PER_WORKSPACE: '4',
    MCP_STREAMS_PER_PROCESS: '6',
  })
  ws = await importOk(t.db.db, writableBundle())
  other = await importOk(t.db.db, writableBundle())
})
type Listener = Awaited<ReturnType<typeof listenerOn>>
const opened: Listener[] = []
// The clients first: the server's close waits for their connections.
after(async () => {
  for (const { mcp } of opened) await mcp.close().catch(() => {})
  await t.close()
})

/** Opens a stream as `token`: true when it is acknowledged, false when refused. */
async function open(token: string): Promise<boolean> {
  const listener = await listenerOn(t.origin, token)
  opened.push(listener)
  try {
    await listener.mcp.listen({ resourceSubscriptions: ['workgraph://changes'] })
    return true
  } catch (error) {
    assert.match(String(error), /Subscription limit reached/)
    return false
  }
}

/** A new key of Olive's, made with her own (keys are free to make). */
async function newKey(): Promise<string> {
  const made = await client(t.app, tokenOf(ws, 'olive-key')).post('/v1/api-keys', {
    name: 'another',
    scopes: ALL_READ_SCOPES,
  })
  assert.equal(made.status, 201, made.body)
  return made.json.token
}

test('many keys of one person hold no more than the person may; the rest of the workspace still listens', async () => {
  const keys = [await newKey(), await newKey()]
  const answers = []
  for (const key of keys) for (let i = 0; i < 2; i++) answers.push(await open(key))
  assert.deepEqual(answers, [true, true, true, false], 'three for Olive, whatever her keys')
  assert.equal(await open(tokenOf(ws, 'alice-key')), true, 'Alice is not refused for Olive')
  assert.equal(await open(tokenOf(ws, 'bob-key')), false, 'the workspace holds four')
  assert.equal(await open(tokenOf(other, 'bob-key')), true, 'another workspace still listens')
  assert.equal(await open(tokenOf(other, 'alice-key')), true)
  assert.equal(await open(tokenOf(other, 'adam-key')), false, 'the process holds six')
  // A stream that closes gives its place back.
  const first = opened[0] as Listener
  await first.mcp.close()
  await new Promise((resolve) => setTimeout(resolve, 200))
  assert.equal(await open(keys[1] as string), true)
})
