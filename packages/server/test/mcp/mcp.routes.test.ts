import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { countTokens } from '../../src/lib/token-budget.ts'
import { ALL_READ_SCOPES, importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { MAIN } from '../harness/cli.ts'
import { type CalledTool, connectMcp, GENERATIONS } from '../harness/mcp-clients.ts'
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { postMcp, toolCall } from '../harness/mcp-raw.ts'
import { type ListeningTestApp, startListeningTestApp } from '../harness/oauth-flow.ts'
import { client, startTestApp } from '../harness/test-app.ts'

let t: ListeningTestApp
let ws: ImportResult
let mcpUrl: string
const id = (key: string) => ws.ids[key] as string
const text = (result: CalledTool) => result.content.map((part) => part.text ?? '').join('\n')

const READ_TOOLS = ['search', 'fetch', 'workspace', 'list', 'activity', 'changes']
const WRITE_TOOLS = ['create_task', 'update_task', 'add_comment', 'okr_checkin']

before(async () => {
  t = await startListeningTestApp()
  const bundle = writableBundle()
  bundle.api_keys?.push(
    { key: 'reader', person: 'alice', scopes: ALL_READ_SCOPES },
    { key: 'tasks-only', person: 'alice', scopes: ['task:read', 'task:write'] },
  )
  ws = await importOk(t.db.db, bundle)
  mcpUrl = `${t.origin}/mcp`
})
after(() => t.close())

test('without a token, /mcp answers 401 with the challenge that leads to the OAuth server', async () => {
  const reply = await fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  })
  assert.equal(reply.status, 401)
  const challenge = reply.headers.get('www-authenticate') ?? ''
  assert.match(challenge, /^Bearer /)
  const metadata = /resource_metadata="([^"]+)"/.exec(challenge)?.[1]
  assert.ok(metadata, challenge)
  const document = (await (await fetch(metadata)).json()) as Record<string, unknown>
  assert.deepEqual(document.authorization_servers, [t.origin])
  assert.equal(document.resource, t.origin)
})

test('a revoked or unknown token is refused like on /v1', async () => {
  const reply = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: 'Bearer wg_live_not_a_real_token',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  })
  assert.equal(reply.status, 401)
  assert.equal(reply.headers.get('content-type'), 'application/problem+json; charset=utf-8')
})

test('a page on another origin cannot drive /mcp from a browser', async () => {
  const reply = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tokenOf(ws, 'alice-key')}`,
      origin: 'https://evil.example',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  })
  assert.equal(reply.status, 403)
})

for (const generation of GENERATIONS) {
  describe(`an official ${generation} MCP client`, () => {
    test('sees exactly the tools its scopes allow', async () => {
      const expectations: [string, string[]][] = [
        ['alice-key', [...READ_TOOLS, ...WRITE_TOOLS]],
        ['reader', READ_TOOLS],
        [
          'tasks-only',
          ['search', 'fetch', 'workspace', 'list', 'changes', 'create_task', 'update_task'],
        ],
      ]
      for (const [key, expected] of expectations) {
        const mcp = await connectMcp(generation, mcpUrl, tokenOf(ws, key))
        try {
          const names = (await mcp.listTools()).map((tool) => tool.name)
          assert.deepEqual(names, expected, key)
        } finally {
          await mcp.close()
        }
      }
    })

    test('every tool carries annotations, and read tools say they only read', async () => {
      const mcp = await connectMcp(generation, mcpUrl, tokenOf(ws, 'alice-key'))
      try {
        for (const tool of await mcp.listTools()) {
          // What a client reads, with the protocol's defaults for the hints left out.
          const a = tool.annotations ?? {}
          const readOnly = a.readOnlyHint ?? false
          assert.equal(readOnly || (a.destructiveHint ?? true), readOnly, tool.name)
          assert.equal(a.openWorldHint ?? true, false, tool.name)
          assert.equal(readOnly, !WRITE_TOOLS.includes(tool.name), tool.name)
          assert.ok(tool.outputSchema, tool.name)
        }
      } finally {
        await mcp.close()
      }
    })

    test('list and activity answer in Markdown with numbered citations and typed data', async () => {
      const mcp = await connectMcp(generation, mcpUrl, tokenOf(ws, 'alice-key'))
      try {
        const tasks = await mcp.callTool('list', { type: 'task' })
        assert.equal(tasks.isError, undefined, text(tasks))
        assert.match(text(tasks), /^\[1\] “/m)
        const items = tasks.structuredContent?.items as { id: string; url: string }[]
        assert.ok(items.some((item) => item.id === id('t-open')))
        // Each row is cited by its id; the page of every row is said once, with {id} in it.
        const page = /^Page of a row: (\S+\{id\});/m.exec(text(tasks))?.[1] ?? ''
        for (const item of items) {
          assert.ok(text(tasks).includes(` ${item.id} · `))
          assert.equal(page.replace('{id}', item.id), item.url)
        }

        // A row names its assignee and project, as a person would, rather than by id.
        assert.match(text(tasks), /^Row: \[n\] “title” id · status · due · assignee · project/m)
        const open = text(tasks)
          .split('\n')
          .find((line) => line.includes(id('t-open')))
        assert.match(open ?? '', /· todo · 2026-12-01 · Gus Guest · Open project$/)

        const mine = await mcp.callTool('list', { type: 'task', assignee_id: 'me' })
        assert.equal(mine.isError, undefined, text(mine))

        const activity = await mcp.callTool('activity', { limit: 5 })
        assert.equal(activity.isError, undefined, text(activity))
        const entries = activity.structuredContent?.entries as { actor: string | null }[]
        assert.ok(entries.length > 0 && entries.every((entry) => entry.actor !== undefined))
        assert.doesNotMatch(text(activity), /by usr_/, 'people are named, not numbered')
      } finally {
        await mcp.close()
      }
    })

    test('a hidden project is answered like an unknown one', async () => {
      const mcp = await connectMcp(generation, mcpUrl, tokenOf(ws, 'gus-key'))
      try {
        const hidden = await mcp.callTool('list', { type: 'task', project_id: id('secret') })
        const unknown = await mcp.callTool('list', {
          type: 'task',
          project_id: 'prj_00000000000000000000000000',
        })
        assert.equal(hidden.isError, true)
        assert.equal(text(hidden), text(unknown))
      } finally {
        await mcp.close()
      }
    })

    test('a filter the listed type does not have is refused, not ignored', async () => {
      const mcp = await connectMcp(generation, mcpUrl, tokenOf(ws, 'alice-key'))
      try {
        for (const args of [
          { type: 'task', status: ['active'] },
          { type: 'project', assignee_id: 'me' },
          { type: 'team', project_id: id('open') },
        ]) {
          const result = await mcp.callTool('list', args)
          assert.equal(result.isError, true, JSON.stringify(args))
          assert.match(text(result), /422 validation_failed/)
        }
      } finally {
        await mcp.close()
      }
    })

    test('a small budget pages instead of overflowing', async () => {
      const mcp = await connectMcp(generation, mcpUrl, tokenOf(ws, 'alice-key'))
      try {
        const seen = new Set<string>()
        let cursor: string | undefined
        for (let round = 0; round < 20; round++) {
          const page = await mcp.callTool('list', {
            type: 'task',
            max_tokens: 500,
            ...(cursor ? { cursor } : {}),
          })
          assert.equal(page.isError, undefined, text(page))
          const items = page.structuredContent?.items as { id: string }[]
          for (const item of items) {
            assert.ok(!seen.has(item.id), 'an item came twice')
            seen.add(item.id)
          }
          cursor = (page.structuredContent?.next_cursor as string | null) ?? undefined
          if (!cursor) break
        }
        const all = await mcp.callTool('list', { type: 'task', limit: 50 })
        const items = all.structuredContent?.items as unknown[]
        assert.equal(seen.size, items.length)
      } finally {
        await mcp.close()
      }
    })
  })
}

test('MCP writes go through the REST write path: idempotent, audited as via mcp', async () => {
  const mcp = await connectMcp('v2', mcpUrl, tokenOf(ws, 'alice-key'))
  try {
    const args = { title: 'Filed by an agent', project_id: id('open'), idempotency_key: 'mcp-1' }
    const first = await mcp.callTool('create_task', args)
    assert.equal(first.isError, undefined, text(first))
    const again = await mcp.callTool('create_task', args)
    assert.equal(again.structuredContent?.id, first.structuredContent?.id)
    assert.equal(again.structuredContent?.replayed, true)
    const other = await mcp.callTool('create_task', { ...args, title: 'Something else' })
    assert.equal(other.isError, true)
    assert.match(text(other), /idempotency_key_reused/)

    const taskId = first.structuredContent?.id as string
    const done = await mcp.callTool('update_task', { task_id: taskId, status: 'done' })
    assert.equal(done.structuredContent?.status, 'done')
    const reopened = await mcp.callTool('update_task', {
      task_id: taskId,
      status: 'todo',
      due: '2026-12-24',
    })
    assert.deepEqual(
      [reopened.structuredContent?.status, reopened.structuredContent?.due],
      ['todo', '2026-12-24'],
    )
    assert.match(text(reopened), /is now todo, unassigned, due 2026-12-24/)
    const comment = await mcp.callTool('add_comment', { resource_id: taskId, body: 'Shipped.' })
    assert.equal(comment.isError, undefined, text(comment))
    const checkin = await mcp.callTool('okr_checkin', { key_result_id: id('kr1'), value: 55 })
    assert.equal(checkin.isError, undefined, text(checkin))

    const audit = await client(t.app, tokenOf(ws, 'olive-key')).get(
      `/v1/audit?resource_id=${taskId}`,
    )
    assert.equal(audit.status, 200)
    const entries = audit.json.data as { action: string; via: string }[]
    assert.deepEqual(
      entries.map((e) => [e.action, e.via]).sort(),
      [
        ['comment.created', 'mcp'],
        ['task.completed', 'mcp'],
        ['task.created', 'mcp'],
        ['task.updated', 'mcp'],
      ].filter(([action]) => entries.some((e) => e.action === action)),
    )
    assert.ok(entries.length >= 2 && entries.every((e) => e.via === 'mcp'))
  } finally {
    await mcp.close()
  }
})

test('bad tool input is a tool error that changes nothing', async () => {
  const mcp = await connectMcp('v2', mcpUrl, tokenOf(ws, 'alice-key'))
  try {
    const before = await mcp.callTool('list', { type: 'task', limit: 50 })
    for (const args of [
      { title: '' },
      { title: 'x', due: 'not-a-date' },
      { title: 'x', project_id: 'prj_00000000000000000000000000' },
      { title: 'x', unexpected: true },
    ]) {
      let result: CalledTool
      try {
        result = await mcp.callTool('create_task', args)
      } catch (error) {
        // Some SDK generations raise invalid arguments as a protocol error: refused all the same.
        assert.match(String(error), /Invalid|invalid/)
        continue
      }
      assert.equal(result.isError, true, JSON.stringify(args))
    }
    const after = await mcp.callTool('list', { type: 'task', limit: 50 })
    assert.deepEqual(after.structuredContent?.items, before.structuredContent?.items)
  } finally {
    await mcp.close()
  }
})

test('workgraph mcp serves the same tools over stdio', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'mcp'],
    env: {
      WORKGRAPH_URL: t.origin,
      WORKGRAPH_API_KEY: tokenOf(ws, 'reader'),
      PATH: process.env.PATH ?? '',
    },
    stderr: 'pipe',
  })
  const stdio = new Client({ name: 'stdio-test', version: '1.0.0' })
  await stdio.connect(transport)
  try {
    const names = (await stdio.listTools()).tools.map((tool) => tool.name)
    assert.deepEqual(names, READ_TOOLS)
    const result = (await stdio.callTool({ name: 'workspace', arguments: {} })) as CalledTool
    assert.match(text(result), /You act as Alice/)
  } finally {
    await stdio.close()
  }
})

test('workgraph mcp answers a refused key with an error instead of leaving the client waiting', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'mcp'],
    env: {
      WORKGRAPH_URL: t.origin,
      WORKGRAPH_API_KEY: 'wg_key_not_a_key',
      PATH: process.env.PATH ?? '',
    },
    stderr: 'pipe',
  })
  const stdio = new Client({ name: 'stdio-test', version: '1.0.0' })
  await assert.rejects(stdio.connect(transport), /Workgraph server/)
  await stdio.close()
})

test('the tool definitions of a token that may do everything take at most 3,000 tokens, every argument described', async () => {
  const mcp = await connectMcp('v2', mcpUrl, tokenOf(ws, 'alice-key'))
  try {
    const tools = await mcp.listTools()
    const tokens = countTokens(JSON.stringify(tools))
    console.log(`tools/list: ${tools.length} tools, ${tokens} o200k tokens`)
    assert.ok(tools.length <= 10)
    assert.ok(tokens <= 3000, `${tokens} tokens`)
    // Every argument says what it is, nested ones too; what only a validator needs is not listed.
    const undescribed: string[] = []
    const walk = (name: string, schema: { properties?: Record<string, unknown> }) => {
      for (const [key, value] of Object.entries(schema.properties ?? {})) {
        const property = value as { description?: string; properties?: Record<string, unknown> }
        if (!property.description) undescribed.push(`${name}.${key}`)
        walk(`${name}.${key}`, property)
      }
    }
    for (const tool of tools)
      walk(tool.name, tool.inputSchema as { properties?: Record<string, unknown> })
    assert.deepEqual(undescribed, [])
    assert.doesNotMatch(JSON.stringify(tools), /maxLength|additionalProperties|uniqueItems/)
  } finally {
    await mcp.close()
  }
})

test('arguments are checked against the whole schema, lengths and unknown fields included', async () => {
  const mcp = await connectMcp('v2', mcpUrl, tokenOf(ws, 'alice-key'))
  try {
    for (const [tool, args] of [
      ['search', { query: 'x'.repeat(501) }],
      ['search', { query: 'plan', bogus: true }],
      ['fetch', { id: ['a', 'b', 'c', 'd', 'e', 'f'] }],
      ['create_task', { title: 't', idempotency_key: 'k'.repeat(256), dry_run: true }],
      ['update_task', { task_id: id('t-open') }],
    ] as const) {
      const answer = await mcp.callTool(tool, args)
      assert.equal(answer.isError, true, `${tool} ${JSON.stringify(args)}: ${text(answer)}`)
      assert.match(text(answer), /Input validation error/)
    }
  } finally {
    await mcp.close()
  }
})

test('write tools spend the token’s write budget, as REST writes do', async () => {
  const limited = await startTestApp({ env: { RATE_LIMIT_WRITES_PER_MINUTE: '2' } })
  try {
    const result = await importOk(limited.db.db, writableBundle())
    const token = tokenOf(result, 'alice-key')
    const project = result.ids.open as string
    const create = (n: number) =>
      postMcp(
        limited.app,
        token,
        toolCall(n, 'create_task', { title: `T${n}`, project_id: project }),
      )
    assert.equal((await create(1)).status, 200)
    assert.equal((await create(2)).status, 200)
    const third = await create(3)
    assert.equal(third.status, 429)
    assert.equal(third.json.code, 'rate_limited')
    assert.ok(Number(third.headers['retry-after']) > 0)
    // Reads have their own budget.
    assert.equal((await callToolInProcess(limited.app, token, 'workspace')).isError, undefined)
  } finally {
    await limited.close()
  }
})

describe('search and fetch', () => {
  test('search reads a question and cites each hit with its URL', async () => {
    const mcp = await connectMcp('v1', mcpUrl, tokenOf(ws, 'alice-key'))
    try {
      const result = await mcp.callTool('search', { query: 'what is the open task?' })
      assert.equal(result.isError, undefined, text(result))
      const hits = result.structuredContent?.results as { id: string; url: string }[]
      assert.ok(
        hits.some((hit) => hit.id === id('t-open')),
        text(result),
      )
      const lines = text(result).split('\n')
      for (const [i, hit] of hits.entries()) {
        const line = lines.find((l) => l.startsWith(`[${i + 1}] [`)) ?? ''
        assert.ok(line.includes(`](${hit.url})`), `hit ${i + 1} is cited with its URL`)
      }
      for (const hit of hits) assert.equal(text(result).split(hit.url).length, 2, 'one URL once')
      // An empty answer under filters says what to try next.
      const none = await mcp.callTool('search', { query: 'due<2000-01-01 open task' })
      assert.match(
        text(none),
        /Nothing you can open matches\. Without the filters, try: “open task”\./,
      )
      // A task's line says what an agent asks next about it.
      assert.match(
        text(result),
        /\[Open task\]\(.*\) · task · todo · assigned to Gus Guest · in “Open project” · due 2026-12-01/,
      )
    } finally {
      await mcp.close()
    }
  })

  test('fetch gives any id as a cited summary; a hidden id is an unknown id', async () => {
    const mcp = await connectMcp('v2', mcpUrl, tokenOf(ws, 'gus-key'))
    try {
      const open = await mcp.callTool('fetch', { id: id('t-open') })
      assert.equal(open.isError, undefined, text(open))
      assert.equal(open.structuredContent?.id, id('t-open'))
      assert.match(text(open), /^# \[Open task\]\(/)
      const hidden = await mcp.callTool('fetch', { id: id('t-secret') })
      const unknown = await mcp.callTool('fetch', { id: 'tsk_00000000000000000000000000' })
      assert.equal(hidden.isError, true)
      assert.deepEqual(hidden.content, unknown.content)
    } finally {
      await mcp.close()
    }
  })

  test('workspace: who you are and what needs attention, for you or for a project', async () => {
    const mcp = await connectMcp('v2', mcpUrl, tokenOf(ws, 'alice-key'))
    const gus = await connectMcp('v2', mcpUrl, tokenOf(ws, 'gus-key'))
    try {
      const mine = await mcp.callTool('workspace', {})
      assert.equal(mine.isError, undefined, text(mine))
      assert.match(text(mine), /^## Needs attention$/m)
      assert.match(text(mine), /## Your projects\n\[\d+\] \[Secret project\]/)
      assert.doesNotMatch(text(mine), /Facts:/, 'the opening statement says the numbers')
      const attention = mine.structuredContent?.attention as { id: string; text: string }
      assert.equal(attention.id, id('alice'))
      // Every [n] of the answer names one source: the lists are numbered after what it cites.
      const numbers = [...text(mine).matchAll(/^\[(\d+)\] /gm)].map((m) => Number(m[1]))
      assert.deepEqual(
        numbers,
        numbers.map((_, i) => i + 1),
      )
      const project = await mcp.callTool('workspace', { for: id('open') })
      assert.match(text(project), /^## Needs attention for “Open project” \(project prj_/m)
      assert.doesNotMatch(text(project), /## Your projects/)
      assert.match(text(project), /“Open task” \[1\] is due 2026-12-01/)
      const hidden = await gus.callTool('workspace', { for: id('secret') })
      const unknown = await gus.callTool('workspace', { for: 'prj_00000000000000000000000000' })
      assert.equal(hidden.isError, true)
      assert.deepEqual(hidden.content, unknown.content)
      assert.match(text(hidden), /^Error 404 not_found/)
    } finally {
      await mcp.close()
      await gus.close()
    }
  })

  test('activity says what a comment is on and what a check-in logged, in both faces', async () => {
    const api = client(t.app, tokenOf(ws, 'alice-key'))
    const comment = await api.post('/v1/comments', { resource_id: id('t-open'), body: 'On it.' })
    assert.equal(comment.status, 201, comment.body)
    const checkin = await api.post('/v1/okr/checkins', {
      key_result_id: id('kr1'),
      value: 56,
      confidence: 0.7,
    })
    assert.equal(checkin.status, 201, checkin.body)
    const mcp = await connectMcp('v2', mcpUrl, tokenOf(ws, 'alice-key'))
    try {
      const entries = async (args: Record<string, unknown>) => {
        const result = await mcp.callTool('activity', { ...args, limit: 20 })
        const all = result.structuredContent?.entries as Record<string, unknown>[]
        return { markdown: text(result), all }
      }
      const comments = await entries({ resource_id: id('t-open'), verbs: ['comment.created'] })
      assert.match(comments.markdown, /· comment\.created · .* · by Alice Member · on “Open task”/)
      const commented = comments.all.find((e) => e.title === 'comment created: On it.')
      assert.equal(commented?.on_id, id('t-open'))
      assert.equal(commented?.on, 'Open task')
      const checkins = await entries({ resource_id: id('o1'), verbs: ['okr.checkin'] })
      assert.match(checkins.markdown, /· okr\.checkin · .* · “Signups” at 56 \(confidence 70%\)/)
      const logged = checkins.all.find((e) => (e.checkin as { value: number }).value === 56)
      assert.deepEqual(logged?.checkin, {
        value: 56,
        confidence: 0.7,
        key_result: 'Signups',
        unit: '',
      })
      // Each entry's own summary says it too.
      const commentSummary = await api.get(`/v1/resources/${commented?.id}/summary`)
      assert.match(commentSummary.json.text, /commented “On it\.” \[\d\] on “Open task” \[\d\]\./)
      const checkinSummary = await api.get(`/v1/resources/${logged?.id}/summary`)
      assert.match(
        checkinSummary.json.text,
        /checked in on objective “Grow” \[\d\]: “Signups” at 56 \(confidence 70%\)\./,
      )
    } finally {
      await mcp.close()
    }
  })

  test('changes: the cursor of now, then each change after it, named, with its actor', async () => {
    const mcp = await connectMcp('v2', mcpUrl, tokenOf(ws, 'alice-key'))
    const gus = await connectMcp('v2', mcpUrl, tokenOf(ws, 'gus-key'))
    try {
      const head = await mcp.callTool('changes', {})
      assert.equal(head.isError, undefined, text(head))
      assert.match(text(head), /No new changes/)
      const gusHead = (await gus.callTool('changes', {})).structuredContent?.next_cursor
      const api = client(t.app, tokenOf(ws, 'alice-key'))
      await api.post('/v1/tasks', { title: 'Feed me', project_id: id('open') })
      await api.post('/v1/tasks', { title: 'Secret feed', project_id: id('secret') })
      const after = await mcp.callTool('changes', {
        cursor: head.structuredContent?.next_cursor,
      })
      const lines = text(after).split('\n')
      assert.match(
        lines[1] ?? '',
        /^\[1\] \[Feed me\]\(.+\) · task\.created · .+ · by Alice Member$/,
      )
      assert.match(lines[2] ?? '', /^\[2\] \[Secret feed\]/)
      // Gus cannot open the secret project: its change is passed over, not named.
      const forGus = await gus.callTool('changes', { cursor: gusHead })
      assert.match(text(forGus), /Feed me/)
      assert.doesNotMatch(text(forGus), /Secret feed/)
      // A wait ends with the next change.
      const waiting = mcp.callTool('changes', {
        cursor: after.structuredContent?.next_cursor,
        wait: 20,
      })
      await api.post('/v1/tasks', { title: 'Woken', project_id: id('open') })
      assert.match(text(await waiting), /\[1\] \[Woken\]/)
      const unknown = await mcp.callTool('changes', { from: 'start', types: ['task.exploded'] })
      assert.equal(unknown.isError, true)
      assert.match(text(unknown), /known: .*task\.completed/)
    } finally {
      await mcp.close()
      await gus.close()
    }
  })

  test('resources: the projects the token may open, each read as its cited summary', async () => {
    for (const generation of GENERATIONS) {
      const gus = await connectMcp(generation, mcpUrl, tokenOf(ws, 'gus-key'))
      try {
        const listed = await gus.listResources()
        assert.deepEqual(
          listed.map((resource) => resource.uri),
          [`workgraph://projects/${id('open')}`],
          'the secret project is not offered',
        )
        const [text] = await gus.readResource(`workgraph://projects/${id('open')}`)
        assert.match(text ?? '', /^# \[Open project\]\(/)
        const hidden = await gus
          .readResource(`workgraph://projects/${id('secret')}`)
          .catch((error: Error) => error.message)
        const unknown = await gus
          .readResource('workgraph://projects/prj_00000000000000000000000000')
          .catch((error: Error) => error.message)
        assert.equal(typeof hidden, 'string')
        assert.equal(hidden, unknown, 'a hidden project reads as an unknown one')
        assert.doesNotMatch(String(hidden), /Secret/)
      } finally {
        await gus.close()
      }
    }
    const tasksOnly = await connectMcp('v2', mcpUrl, tokenOf(ws, 'tasks-only'))
    try {
      const offered = await tasksOnly.listResources().catch(() => [])
      assert.deepEqual(offered, [], 'no projects without project:read')
    } finally {
      await tasksOnly.close()
    }
  })

  test('prompts: catch me up and a status report, as plans over the tools', async () => {
    const mcp = await connectMcp('v2', mcpUrl, tokenOf(ws, 'alice-key'))
    try {
      const prompts = await mcp.listPrompts()
      assert.deepEqual(
        prompts.map((prompt) => prompt.name),
        ['catch_me_up', 'status_report'],
      )
      const [catchUp] = await mcp.getPrompt('catch_me_up', {
        since: '2026-11-01',
        project_id: id('open'),
      })
      assert.match(catchUp ?? '', /since 2026-11-01/)
      assert.match(catchUp ?? '', /`activity` with since "2026-11-01", project_id/)
      const [report] = await mcp.getPrompt('status_report', { project_id: id('open') })
      assert.match(report ?? '', new RegExp(`\`fetch\` "${id('open')}"`))
      const missing = await mcp.getPrompt('status_report', {}).catch((error: Error) => error)
      assert.ok(missing instanceof Error, 'a status report needs its project')
    } finally {
      await mcp.close()
    }
  })

  test('fetch takes a url or api_url the service printed, and only those', async () => {
    const mcp = await connectMcp('v2', mcpUrl, tokenOf(ws, 'gus-key'))
    try {
      const record = await client(t.app, tokenOf(ws, 'gus-key')).get(
        `/v1/resources/${id('t-open')}`,
      )
      for (const ref of [record.json.url, record.json.api_url, `${record.json.url}?tab=x#top`]) {
        const answer = await mcp.callTool('fetch', { id: ref })
        assert.equal(answer.structuredContent?.id, id('t-open'), `${ref}: ${text(answer)}`)
      }
      const foreign = await mcp.callTool('fetch', {
        id: `https://elsewhere.example/${id('t-open')}`,
      })
      assert.equal(foreign.isError, true)
      assert.match(text(foreign), /Not a URL of this service/)
      // A page URL of a hidden task is the same not-found as its id.
      const hiddenUrl = String(record.json.url).replace(id('t-open'), id('t-secret'))
      const hidden = await mcp.callTool('fetch', { id: hiddenUrl })
      const unknown = await mcp.callTool('fetch', { id: 'tsk_00000000000000000000000000' })
      assert.deepEqual(hidden.content, unknown.content)
    } finally {
      await mcp.close()
    }
  })

  test('fetch takes several ids: each summary, and the hidden named back as the unknown', async () => {
    const mcp = await connectMcp('v2', mcpUrl, tokenOf(ws, 'gus-key'))
    try {
      const unknownId = 'tsk_00000000000000000000000000'
      const several = await mcp.callTool('fetch', {
        id: [id('t-open'), id('t-secret'), unknownId, id('open')],
        max_tokens: 1200,
      })
      assert.equal(several.isError, undefined, text(several))
      const results = several.structuredContent?.results as { id: string }[]
      assert.deepEqual(
        results.map((result) => result.id),
        [id('t-open'), id('open')],
      )
      assert.deepEqual(several.structuredContent?.not_found, [id('t-secret'), unknownId])
      assert.doesNotMatch(text(several), /Secret task/)
      assert.ok(countTokens(text(several)) <= 1200)
      // The smallest budget holds both faces of a list of five too.
      const five = [id('t-open'), id('open'), id('o1'), id('gus'), id('m1')]
      const tight = await mcp.callTool('fetch', { id: five, max_tokens: 500 })
      assert.equal(tight.isError, undefined, text(tight))
      assert.ok(countTokens(text(tight)) <= 500, `${countTokens(text(tight))} tokens`)
      assert.ok(countTokens(JSON.stringify(tight.structuredContent)) <= 500)
      const tooMany = await mcp.callTool('fetch', {
        id: ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `tsk_${n}`),
      })
      assert.equal(tooMany.isError, true)
    } finally {
      await mcp.close()
    }
  })

  test('every budget holds both faces of the answer of search, fetch, list and activity', async () => {
    const mcp = await connectMcp('v2', mcpUrl, tokenOf(ws, 'alice-key'))
    try {
      const calls: [string, Record<string, unknown>][] = [
        ['search', { query: 'task project launch plan grow' }],
        ['fetch', { id: id('secret') }],
        ['fetch', { id: id('o1') }],
        ['list', { type: 'task' }],
        ['activity', {}],
        ['workspace', {}],
        ['workspace', { for: 'workspace' }],
      ]
      for (const budget of [500, 600, 800, 1200, 2000]) {
        for (const [name, args] of calls) {
          const result = await mcp.callTool(name, { ...args, max_tokens: budget })
          assert.equal(result.isError, undefined, `${name} at ${budget}: ${text(result)}`)
          const markdown = countTokens(text(result))
          const data = countTokens(JSON.stringify(result.structuredContent))
          assert.ok(
            markdown <= budget && data <= budget,
            `${name} at ${budget}: ${markdown}, ${data}`,
          )
        }
      }
    } finally {
      await mcp.close()
    }
  })
})
