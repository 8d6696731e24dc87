import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { after, before, describe, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { createLogger } from '../../src/lib/logger.ts'
import {
  ALL_READ_SCOPES,
  ALL_WRITE_SCOPES,
  importOk,
  tokenOf,
  writableBundle,
} from '../harness/bundles.ts'
import { MAIN } from '../harness/cli.ts'
import { type McpReply, postMcp, toolCall } from '../harness/mcp-raw.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

/*
 * What an attacker can bend on /mcp: budgets (every call is charged as what it does, batches
 * included), batches under protocol versions that removed them, deep bodies, foreign origins,
 * malformed handshakes, and errors that would tell them how the server failed (docs/mcp.md).
 */

const PUBLIC_URL = 'https://api.workgraph.test'
const APP_URL = 'https://app.workgraph.test:8443'

let t: TestApp
let ws: ImportResult
const logged: Record<string, unknown>[] = []
const token = () => tokenOf(ws, 'alice-key')
const id = (key: string) => ws.ids[key] as string

before(async () => {
  const logger = createLogger('error', {
    write: (line: string) => void logged.push(JSON.parse(line)),
  })
  t = await startTestApp({ env: { PUBLIC_URL, APP_URL }, logger })
  ws = await importOk(t.db.db, writableBundle())
})
after(() => t.close())

const taskCount = () => count(t)

const workspaceCall = (n: number) => toolCall(n, 'workspace')

describe('budgets are charged per call', () => {
  let limited: TestApp
  let lws: ImportResult
  const READS = 5
  const WRITES = 2
  before(async () => {
    limited = await startTestApp({
      env: {
        RATE_LIMIT_READS_PER_MINUTE: String(READS),
        RATE_LIMIT_WRITES_PER_MINUTE: String(WRITES),
      },
    })
    lws = await importOk(limited.db.db, writableBundle())
  })
  after(() => limited.close())
  // Each test spends a fresh minute of the budgets.
  const nextMinute = () => limited.clock.advance(60_000)
  const post = (body: unknown, key = 'alice-key') =>
    postMcp(limited.app, tokenOf(lws, key), body, { version: '2025-03-26' })
  const answersById = (reply: McpReply) => new Map(reply.messages.map((m) => [m.id, m]))

  test('a batch of reads spends one read per call; calls over the budget are answered with an error', async () => {
    nextMinute()
    const reply = await post(Array.from({ length: READS + 3 }, (_, i) => workspaceCall(i + 1)))
    assert.equal(reply.status, 200, reply.body)
    const answers = answersById(reply)
    assert.equal(answers.size, READS + 3)
    for (let i = 1; i <= READS; i++) assert.ok(answers.get(i)?.result, `call ${i} within budget`)
    for (let i = READS + 1; i <= READS + 3; i++) {
      const error = answers.get(i)?.error
      assert.ok(error, `call ${i} over budget`)
      assert.match(error.message, /rate limited|read requests/i)
      assert.equal((error.data as { status: number }).status, 429)
    }
    assert.equal(reply.headers['ratelimit-limit'], String(READS))
    assert.equal(reply.headers['ratelimit-remaining'], '0')
    // The budget is spent: the next request is refused whole.
    const next = await post(workspaceCall(99))
    assert.equal(next.status, 429)
    assert.ok(Number(next.headers['retry-after']) > 0)
  })

  test('writes in a batch spend the write budget, each; the refused ones write nothing', async () => {
    nextMinute()
    const before = await count(limited)
    const project = lws.ids.open as string
    const reply = await post(
      Array.from({ length: WRITES + 2 }, (_, i) =>
        toolCall(i + 1, 'create_task', { title: `Batch ${i}`, project_id: project }),
      ),
    )
    assert.equal(reply.status, 200, reply.body)
    const answers = [...answersById(reply).values()]
    assert.equal(answers.filter((a) => a.result && !a.result.isError).length, WRITES)
    assert.equal(answers.filter((a) => a.error?.code === -32000).length, 2, reply.body)
    assert.equal((await count(limited)) - before, WRITES)
    assert.equal(reply.headers['ratelimit-limit'], String(WRITES))
    assert.equal(reply.headers['ratelimit-remaining'], '0')
  })

  test('dry runs spend the read budget, as REST counts them, and write nothing', async () => {
    nextMinute()
    const before = await count(limited)
    const project = lws.ids.open as string
    const reply = await post(
      Array.from({ length: READS + 2 }, (_, i) =>
        toolCall(i + 1, 'create_task', { title: `Dry ${i}`, project_id: project, dry_run: true }),
      ),
    )
    assert.equal(reply.status, 200, reply.body)
    const answers = [...answersById(reply).values()]
    assert.equal(answers.filter((a) => a.result).length, READS)
    assert.equal(answers.filter((a) => a.error).length, 2)
    assert.equal(await count(limited), before)
    assert.equal(reply.headers['ratelimit-limit'], String(READS))
    // The write budget is untouched: a real write goes through.
    const write = await post(toolCall(1, 'create_task', { title: 'Real', project_id: project }))
    assert.equal(write.status, 200, write.body)
    assert.equal(write.headers['ratelimit-limit'], String(WRITES))
    assert.equal(write.headers['ratelimit-remaining'], String(WRITES - 1))
  })

  test('a single call over its budget is refused with 429 and Retry-After; the headers say which budget', async () => {
    nextMinute()
    const project = lws.ids.open as string
    const create = (n: number) =>
      post(toolCall(n, 'create_task', { title: `T${n}`, project_id: project }))
    for (let n = 1; n <= WRITES; n++) {
      const reply = await create(n)
      assert.equal(reply.status, 200, reply.body)
      assert.equal(reply.headers['ratelimit-remaining'], String(WRITES - n))
    }
    const refused = await create(WRITES + 1)
    assert.equal(refused.status, 429, refused.body)
    assert.equal(refused.json.code, 'rate_limited')
    assert.equal(refused.headers['ratelimit-limit'], String(WRITES))
    assert.ok(Number(refused.headers['retry-after']) > 0)
    // Reads have their own budget.
    const read = await post(workspaceCall(1))
    assert.equal(read.status, 200, read.body)
    assert.equal(read.headers['ratelimit-limit'], String(READS))
    assert.equal(read.headers['ratelimit-remaining'], String(READS - 1))
  })

  test('a request that makes no call (a body that is no MCP message) still spends a read', async () => {
    nextMinute()
    for (let i = 0; i < READS; i++) await post({ not: 'a message' })
    const reply = await post(workspaceCall(1))
    assert.equal(reply.status, 429)
  })
})

// How many tasks an app's database holds.
async function count(app: TestApp): Promise<number> {
  const row = await app.db.db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

describe('batches', () => {
  const batch = () => [
    toolCall(1, 'create_task', { title: 'Batched', project_id: id('open') }),
    workspaceCall(2),
  ]

  for (const version of ['2025-06-18', '2025-11-25', '2024-11-05', '2026-07-28']) {
    test(`are refused under protocol version ${version}, and run nothing`, async () => {
      const before = await taskCount()
      const reply = await postMcp(t.app, token(), batch(), { version })
      assert.equal(reply.status, 400, reply.body)
      assert.equal(reply.json.error.code, -32600, reply.body)
      assert.equal(reply.json.id, null)
      assert.equal(await taskCount(), before)
    })
  }

  test('are refused when an initialize in them names a version without batches', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      },
    }
    const reply = await postMcp(t.app, token(), [init, workspaceCall(2)], { version: null })
    assert.equal(reply.status, 400, reply.body)
    assert.equal(reply.json.error.code, -32600)
  })

  test('are answered call by call under 2025-03-26, the version that has them', async () => {
    for (const version of ['2025-03-26', null]) {
      const reply = await postMcp(t.app, token(), [workspaceCall(1), workspaceCall(2)], { version })
      assert.equal(reply.status, 200, reply.body)
      assert.deepEqual(reply.messages.map((m) => m.id).sort(), [1, 2])
      assert.ok(
        reply.messages.every((m) => m.result),
        reply.body,
      )
    }
  })

  test('an empty batch, or one of more than 100 messages, is an invalid request', async () => {
    const empty = await postMcp(t.app, token(), [], { version: '2025-03-26' })
    assert.equal(empty.status, 400)
    assert.equal(empty.json.error.code, -32600)
    const huge = Array.from({ length: 101 }, (_, i) => workspaceCall(i))
    const big = await postMcp(t.app, token(), huge, { version: '2025-03-26' })
    assert.equal(big.status, 400)
    assert.equal(big.json.error.code, -32600)
  })
})

test('a body nested thousands of levels deep is a 4xx, as on /v1', async () => {
  const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"x","filters":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}}`
  for (const payload of [deep, `${'['.repeat(5000)}${']'.repeat(5000)}`]) {
    const reply = await postMcp(t.app, token(), payload)
    assert.ok(reply.status >= 400 && reply.status < 500, `${reply.status} ${reply.body}`)
    const rest = await client(t.app, token()).send({
      method: 'POST',
      url: '/v1/search',
      headers: { 'content-type': 'application/json' },
      payload,
    })
    assert.equal(reply.status, rest.status)
  }
})

describe('the Origin header', () => {
  test('is refused unless it is the public or the app origin exactly: scheme, host and port', async () => {
    for (const origin of [
      'http://api.workgraph.test',
      'https://api.workgraph.test:444',
      'https://app.workgraph.test',
      'http://app.workgraph.test:8443',
      'https://evil.example',
      'https://api.workgraph.test.evil.example',
      'null',
      'not a url',
    ]) {
      const reply = await postMcp(t.app, token(), workspaceCall(1), { headers: { origin } })
      assert.equal(reply.status, 403, origin)
    }
    for (const origin of ['https://api.workgraph.test', 'https://app.workgraph.test:8443']) {
      const reply = await postMcp(t.app, token(), workspaceCall(1), { headers: { origin } })
      assert.equal(reply.status, 200, `${origin}: ${reply.body}`)
    }
  })
})

test('initialize with bad params is an invalid-params error, naming no internals', async () => {
  for (const params of [
    { protocolVersion: 5 },
    {},
    { protocolVersion: '2025-06-18', capabilities: 'x', clientInfo: {} },
  ]) {
    const reply = await postMcp(
      t.app,
      token(),
      { jsonrpc: '2.0', id: 7, method: 'initialize', params },
      { version: null },
    )
    assert.ok(reply.status < 500, reply.body)
    const [answer] = reply.messages
    assert.equal(answer?.error?.code, -32602, reply.body)
    assert.equal(answer?.id, 7)
  }
})

describe('an unexpected failure inside a tool', () => {
  const internalError = /^Error 500 internal_error: .*request (req_[0-9a-z]+)/
  const tool = (reply: McpReply) => {
    assert.equal(reply.status, 200, reply.body)
    const result = reply.messages[0]?.result as { isError?: boolean; content: { text: string }[] }
    assert.equal(result?.isError, true, reply.body)
    return result.content.map((part) => part.text).join('\n')
  }

  test('reaches the client as a generic error naming the request, and the log with its cause', async () => {
    const fenced = await client(t.app, tokenOf(ws, 'olive-key')).post('/v1/api-keys', {
      name: 'fenced',
      scopes: [...ALL_READ_SCOPES, ...ALL_WRITE_SCOPES],
      project_ids: [id('open')],
    })
    assert.equal(fenced.status, 201, fenced.body)
    const before = await taskCount()
    logged.length = 0
    const reply = await postMcp(
      t.app,
      fenced.json.token,
      toolCall(1, 'create_task', { title: 'x' }),
    )
    const text = tool(reply)
    if (!text.startsWith('Error 422')) {
      // Until the write refuses the request itself, it fails on the way: generically.
      const requestId = internalError.exec(text)?.[1]
      assert.ok(requestId, text)
      assert.equal(reply.headers['x-request-id'], requestId)
      assert.ok(
        logged.some((line) => line.request_id === requestId && line.err),
        'logged',
      )
    }
    assert.doesNotMatch(text, /tsk_|visible|writer|at .*\.ts/)
    assert.equal(await taskCount(), before)
  })

  test('of any dependency is answered the same way', async () => {
    const urls = t.deps.urls
    const original = urls.resource
    urls.resource = () => {
      throw new Error('connection to tsk_0000000000000000000000000 failed at /srv/secret.ts:12')
    }
    try {
      logged.length = 0
      for (const [name, args] of [
        ['list', { type: 'task' }],
        ['fetch', { id: id('t-open') }],
        ['search', { query: 'task' }],
      ] as const) {
        const reply = await postMcp(t.app, token(), toolCall(1, name, args))
        const text = tool(reply)
        const requestId = internalError.exec(text)?.[1]
        assert.ok(requestId, `${name}: ${text}`)
        assert.doesNotMatch(text, /tsk_|secret|connection/)
        assert.ok(
          logged.some((line) => line.request_id === requestId),
          `${name} logged`,
        )
      }
    } finally {
      urls.resource = original
    }
  })
})

describe('workgraph mcp', () => {
  // Runs the stdio bridge with its standard input closed: it ends at once when it may start.
  const bridge = (url: string) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [MAIN, 'mcp'], {
        env: { PATH: process.env.PATH ?? '', WORKGRAPH_URL: url, WORKGRAPH_API_KEY: 'wg_key_x' },
        stdio: ['pipe', 'pipe', 'pipe'],
      })
      let stderr = ''
      child.stderr.on('data', (chunk) => (stderr += chunk))
      child.stdin.end()
      child.on('close', (code) => resolve({ code, stderr }))
    })

  // What is loopback is lib/loopback.test.ts; mcp.routes.test.ts runs the bridge over loopback http.
  test('refuses to send the key over plain http to a host that is not loopback', async () => {
    for (const url of ['http://workgraph.example.test', 'http://10.0.0.8:8080']) {
      const run = await bridge(url)
      assert.equal(run.code, 2, `${url}: ${run.stderr}`)
      assert.match(run.stderr, /https/, url)
    }
  })
})

// Params that do not fit each method the server answers, beside ones that do (a control).
const BAD_PARAMS: Record<string, { bad: unknown[]; good: unknown }> = {
  ping: { bad: [{ _meta: 5 }], good: {} },
  'tools/list': { bad: [{ cursor: 5 }], good: {} },
  'tools/call': {
    bad: [{ name: 5 }, { name: 'workspace', arguments: 'x' }, {}],
    good: { name: 'workspace', arguments: {} },
  },
  'prompts/list': { bad: [{ cursor: [] }], good: {} },
  'prompts/get': {
    bad: [
      { name: 'catch_me_up', arguments: { since: 5 } },
      { name: 'catch_me_up', arguments: { since: 'x'.repeat(500) } },
      { name: 'catch_me_up', arguments: { colour: 'blue' } },
      { name: 'status_report', arguments: {} },
      { name: 'no_such_prompt' },
      { name: 7 },
      { arguments: {} },
    ],
    good: { name: 'catch_me_up', arguments: { since: '2026-11-01' } },
  },
  'resources/list': { bad: [{ cursor: {} }], good: {} },
  'resources/templates/list': { bad: [{ cursor: 1 }], good: {} },
  'resources/read': { bad: [{}, { uri: 5 }, { uri: 'not a uri at all' }], good: null },
}

test('params that do not fit a method are -32602 for every method, naming no internals', async () => {
  for (const [method, { bad, good }] of Object.entries(BAD_PARAMS)) {
    for (const params of bad) {
      const reply = await postMcp(t.app, token(), { jsonrpc: '2.0', id: 9, method, params })
      assert.ok(reply.status < 500, `${method} ${JSON.stringify(params)}: ${reply.body}`)
      const [answer] = reply.messages
      assert.equal(
        answer?.error?.code,
        -32602,
        `${method} ${JSON.stringify(params)}: ${reply.body}`,
      )
      assert.doesNotMatch(reply.body, /"expected"|"path":\[|ZodError|invalid_type/, reply.body)
    }
    if (good === null) continue
    const reply = await postMcp(t.app, token(), { jsonrpc: '2.0', id: 9, method, params: good })
    assert.ok(reply.messages[0]?.result, `${method} ${JSON.stringify(good)}: ${reply.body}`)
  }
})
