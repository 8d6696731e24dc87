import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Client } from '@modelcontextprotocol/client'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { removeProjectMember } from '../harness/access-changes/project-access.commands.ts'
import { ALL_READ_SCOPES, importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { connectMcp } from '../harness/mcp-clients.ts'
import { listenerOn } from '../harness/mcp-listener.ts'
import { type ListeningTestApp, startListeningTestApp } from '../harness/oauth-flow.ts'
import { client } from '../harness/test-app.ts'

// `subscriptions/listen` (docs/mcp.md, "Following changes"): a client on protocol 2026-07-28
// follows the change feed as resource updates, each carrying the changes, as its caller may see
// them; a credential that ends ends the stream.

let t: ListeningTestApp
let ws: ImportResult
before(async () => {
  t = await startListeningTestApp()
  const bundle = writableBundle()
  // Bob created a task in the secret project, which he cannot open: he opens the task alone.
  // And he belongs to a private project of his own, until a test takes him out of it.
  bundle.projects?.push({
    key: 'bobs',
    name: "Bob's corner",
    status: 'active',
    visibility: 'private',
    owner: 'bob',
    members: [{ person: 'bob' }, { person: 'alice' }],
  })
  bundle.tasks?.push(
    {
      key: 't-bob-secret',
      title: 'Bob in secret',
      status: 'todo',
      project: 'secret',
      creator: 'bob',
    },
    {
      key: 't-bob-corner',
      title: 'Bob in his corner',
      status: 'todo',
      project: 'bobs',
      creator: 'bob',
    },
  )
  ws = await importOk(t.db.db, bundle)
})
after(() => t.close())

const as = (key: string) => client(t.app, tokenOf(ws, key))
const id = (key: string) => ws.ids[key] as string

/** A modern client of `token` on this app, and the resource updates it has heard. */
const listener = (token: string) => listenerOn(t.origin, token)

test('a listener hears each change it may see, with its title and actor, on the feed and its project', async () => {
  const { mcp, heard, until } = await listener(tokenOf(ws, 'bob-key'))
  try {
    const projectUri = `workgraph://projects/${id('open')}`
    const sub = await mcp.listen({ resourceSubscriptions: ['workgraph://changes', projectUri] })
    assert.deepEqual(sub.honoredFilter.resourceSubscriptions, ['workgraph://changes', projectUri])
    // Bob cannot open the secret project: its change comes first in the feed, and is not heard.
    const hidden = await as('alice-key').post('/v1/tasks', {
      title: 'Hidden plan',
      project_id: id('secret'),
    })
    assert.equal(hidden.status, 201, hidden.body)
    const seen = await as('alice-key').post('/v1/tasks', {
      title: 'Visible step',
      project_id: id('open'),
    })
    assert.equal(seen.status, 201, seen.body)
    await until(2)
    const feed = heard.find((update) => update.uri === 'workgraph://changes')
    const project = heard.find((update) => update.uri === projectUri)
    const changes = feed?._meta?.['workgraph/changes']
    const cursor = feed?._meta?.['workgraph/next_cursor']
    assert.ok(changes && cursor, JSON.stringify(heard))
    assert.deepEqual(
      changes.map((change) => [change.event, change.title, change.actor, change.resource_id]),
      [['task.created', 'Visible step', 'Alice Member', seen.json.id]],
    )
    assert.deepEqual(project?._meta?.['workgraph/changes'], changes)
    assert.ok(!JSON.stringify(heard).includes('Hidden'))
    assert.ok(!JSON.stringify(heard).includes(hidden.json.id))
    // The cursor resumes the feed with the `changes` tool: nothing after it yet.
    const resumed = await mcp.callTool({
      name: 'changes',
      arguments: { cursor },
    })
    assert.deepEqual((resumed.structuredContent as { changes: unknown[] }).changes, [])
    await sub.close()
    assert.equal(await sub.closed, 'local')
  } finally {
    await mcp.close()
  }
})

test('a key revoked while it listens ends the stream, and hears nothing made after', async () => {
  const made = await as('olive-key').post('/v1/api-keys', {
    name: 'listener',
    scopes: ALL_READ_SCOPES,
  })
  assert.equal(made.status, 201, made.body)
  const { mcp, heard } = await listener(made.json.token)
  try {
    const sub = await mcp.listen({ resourceSubscriptions: ['workgraph://changes'] })
    const revoked = await as('olive-key').post(`/v1/tokens/${made.json.id}/revoke`)
    assert.equal(revoked.status, 200, revoked.body)
    // The next change wakes the stream's wait; it is read as a request now would be: refused.
    const after = await as('alice-key').post('/v1/tasks', {
      title: 'Made after the revocation',
      project_id: id('open'),
    })
    assert.equal(after.status, 201)
    assert.equal(await sub.closed, 'graceful')
    assert.ok(!JSON.stringify(heard).includes('Made after the revocation'))
  } finally {
    await mcp.close().catch(() => {})
  }
})

test('a client of 2025 is not offered resource subscriptions, which a stateless exchange cannot carry', async () => {
  const legacy = await connectMcp('v2', `${t.origin}/mcp`, tokenOf(ws, 'bob-key'))
  try {
    const raw = await fetch(`${t.origin}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokenOf(ws, 'bob-key')}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'old', version: '1' },
        },
      }),
    })
    const body = await raw.text()
    assert.ok(body.includes('"capabilities"'), body)
    assert.ok(!body.includes('"subscribe"'), body)
  } finally {
    await legacy.close()
  }
})

test('a token holds at most five open streams; the sixth is refused before it is acknowledged', async () => {
  const clients = await Promise.all(
    Array.from({ length: 6 }, () => listener(tokenOf(ws, 'adam-key'))),
  )
  try {
    const subs = []
    for (const { mcp } of clients.slice(0, 5)) {
      subs.push(await mcp.listen({ resourceSubscriptions: ['workgraph://changes'] }))
    }
    const sixth = clients[5]?.mcp as Client
    await assert.rejects(
      sixth.listen({ resourceSubscriptions: ['workgraph://changes'] }),
      /Subscription limit reached/,
    )
    await subs[0]?.close()
    await new Promise((resolve) => setTimeout(resolve, 100))
    const again = await sixth.listen({ resourceSubscriptions: ['workgraph://changes'] })
    await again.close()
    for (const sub of subs.slice(1)) await sub.close()
  } finally {
    for (const { mcp } of clients) await mcp.close()
  }
})

test('a project the caller cannot open is silent, like one that does not exist, though they see a change in it', async () => {
  const { mcp, heard, until } = await listener(tokenOf(ws, 'bob-key'))
  try {
    const secret = `workgraph://projects/${id('secret')}`
    const madeUp = `workgraph://projects/prj_${'0'.repeat(26)}`
    const sub = await mcp.listen({ resourceSubscriptions: ['workgraph://changes', secret, madeUp] })
    assert.deepEqual(sub.honoredFilter.resourceSubscriptions, [
      'workgraph://changes',
      secret,
      madeUp,
    ])
    const comment = await as('alice-key').post('/v1/comments', {
      resource_id: id('t-bob-secret'),
      body: 'Said in the secret project',
    })
    assert.equal(comment.status, 201, comment.body)
    // Bob may open the task, so the feed brings him the comment: the one update he hears.
    await until(1)
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.deepEqual(
      heard.map((update) => update.uri),
      ['workgraph://changes'],
    )
    assert.equal(heard[0]?._meta?.['workgraph/changes']?.[0]?.resource_id, comment.json.id)
    await sub.close()
  } finally {
    await mcp.close()
  }
})

test('a project the caller stops being able to open stops being heard at once', async () => {
  const { mcp, heard, until } = await listener(tokenOf(ws, 'bob-key'))
  try {
    const corner = `workgraph://projects/${id('bobs')}`
    const sub = await mcp.listen({ resourceSubscriptions: ['workgraph://changes', corner] })
    const before = await as('alice-key').post('/v1/comments', {
      resource_id: id('t-bob-corner'),
      body: 'Before Bob left',
    })
    assert.equal(before.status, 201, before.body)
    await until(2)
    assert.deepEqual(
      heard.map((update) => update.uri).sort(),
      [corner, 'workgraph://changes'].sort(),
    )
    await removeProjectMember(t.db.db, ws.workspace_id, id('bobs'), id('bob'))
    const after = await as('alice-key').post('/v1/comments', {
      resource_id: id('t-bob-corner'),
      body: 'After Bob left',
    })
    assert.equal(after.status, 201, after.body)
    // He still opens the task he created, so the feed brings the comment; its project is silent.
    await until(3)
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.deepEqual(
      heard.slice(2).map((update) => update.uri),
      ['workgraph://changes'],
    )
    await sub.close()
  } finally {
    await mcp.close()
  }
})
