import fc from 'fast-check'
import { TOOLS } from '../../src/mcp/tools/index.ts'
import { chance, int, pick } from './malformed/draws.ts'
import type { Gen } from './malformed/fuzz-request.ts'

// Requests to /mcp as a hostile client writes them: JSON-RPC messages and batches with random
// methods, ids and params; tool calls of real and made-up tools with arguments that are random,
// nearly right or huge; bodies nested deep; protocol versions, Origins, Accept and content types
// that are wrong. A call of a tool that writes is always either a dry run or invalid, so that
// nothing may be written whatever the server does with it.

/** What the generator draws on: real ids, a token, and the origins the server allows. */
export interface McpFuzzContext {
  token: string
  ids: string[]
  origins: string[]
}

/** One request for `inject`, and what it was made of, for the failure message. */
export interface McpFuzzRequest {
  headers: Record<string, string>
  payload: string
  shape: string
}

const WRITE_TOOLS = TOOLS.filter((tool) => tool.annotations.readOnlyHint !== true).map(
  (t) => t.name,
)
const TOOL_NAMES = [
  ...TOOLS.map((tool) => tool.name),
  'Search',
  'delete_everything',
  '',
  'x'.repeat(300),
]
const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'tools/call',
  'tools/call',
  'notifications/initialized',
  'notifications/cancelled',
  'resources/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'server/discover',
  'subscriptions/listen',
  'rpc.discover',
  '',
]
const VERSIONS = [
  '2025-03-26',
  '2025-06-18',
  '2025-11-25',
  '2024-11-05',
  '2026-07-28',
  '1999-01-01',
  'latest',
  '2025-03-26, 2025-06-18',
]

const huge = (g: Gen) =>
  pick(g, ['a', '🚀', '\u202E', '[x](https://evil.example)']).repeat(int(g, 1_000, 60_000))

/** A JSON value nested `levels` deep, as text (JSON.stringify recurses; this does not). */
function nested(levels: number, array: boolean): string {
  return array
    ? `${'['.repeat(levels)}1${']'.repeat(levels)}`
    : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
}

// Arguments for a tool: random JSON, nearly right ones with a wrong value, or huge ones.
function argumentsFor(g: Gen, tool: string, ids: string[]): unknown {
  const id = pick(g, [...ids, 'tsk_00000000000000000000000000', '', 'me'])
  const plausible: Record<string, unknown> = {
    search: { query: pick(g, ['task', 'status:blocked my tasks', '"quoted', '-x or y', '']) },
    fetch: { id },
    list: { type: pick(g, ['task', 'project', 'person', 'okr', 'canvas', 'team', 'nope']) },
    activity: { limit: int(g, -1, 60) },
    // No wait: a fuzzed call that waited would hold the test for its seconds.
    changes: { from: 'start', limit: int(g, -1, 60), types: [pick(g, ['task.created', 'x'])] },
    workspace: {},
    create_task: { title: pick(g, ['T', '', ' ']), project_id: id },
    update_task: { task_id: id, status: 'done' },
    add_comment: { resource_id: id, body: 'b' },
    okr_checkin: { key_result_id: id, value: 1 },
  }
  let args: unknown
  switch (int(g, 0, 4)) {
    case 0:
      args = g(() => fc.jsonValue({ maxDepth: 4 }))
      break
    case 1:
      args = {
        ...(plausible[tool] as object),
        [pick(g, ['max_tokens', 'limit', 'cursor', 'type', 'query'])]: g(() =>
          fc.jsonValue({ maxDepth: 2 }),
        ),
      }
      break
    case 2:
      args = {
        ...(plausible[tool] as object),
        [pick(g, ['query', 'title', 'body', 'id', 'cursor'])]: huge(g),
      }
      break
    default:
      args = plausible[tool] ?? {}
  }
  if (
    !WRITE_TOOLS.includes(tool) ||
    args === null ||
    typeof args !== 'object' ||
    Array.isArray(args)
  )
    return args
  // A write is a dry run, or carries a field its schema refuses: never a real write.
  return chance(g, 50) ? { ...args, dry_run: true } : { ...args, not_a_field: 1 }
}

// Params as JSON-RPC has them (an object) most of the time, any JSON now and then.
function randomParams(g: Gen): unknown {
  return chance(g, 80)
    ? g(() =>
        fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      )
    : g(() => fc.jsonValue({ maxDepth: 3 }))
}

function message(g: Gen, ctx: McpFuzzContext): unknown {
  const method = pick(g, METHODS)
  const id = chance(g, 85)
    ? int(g, 0, 1_000)
    : pick(g, ['a', -1, 1.5, null, { x: 1 }, [1], true, 'x'.repeat(200), undefined])
  let params: unknown
  if (method === 'tools/call') {
    const name = pick(g, TOOL_NAMES)
    params = chance(g, 90)
      ? { name, arguments: argumentsFor(g, name, ctx.ids) }
      : g(() => fc.jsonValue({ maxDepth: 3 }))
  } else if (method === 'initialize') {
    params = chance(g, 50)
      ? {
          protocolVersion: pick(g, VERSIONS),
          capabilities: {},
          clientInfo: { name: 'fuzz', version: '1' },
        }
      : randomParams(g)
  } else params = chance(g, 40) ? undefined : randomParams(g)
  const jsonrpc = chance(g, 90) ? '2.0' : pick(g, ['1.0', 2, undefined])
  const base: Record<string, unknown> = { jsonrpc, method }
  if (id !== undefined && !method.startsWith('notifications/')) base.id = id
  if (params !== undefined) base.params = params
  if (chance(g, 5)) return g(() => fc.jsonValue({ maxDepth: 2 }))
  if (chance(g, 5)) return { jsonrpc: '2.0', id: 1, result: {} }
  return base
}

/** One request to /mcp. */
export function mcpFuzzRequest(g: Gen, ctx: McpFuzzContext): McpFuzzRequest {
  let payload: string
  let shape: string
  const kind = int(g, 0, 19)
  if (kind === 0) {
    shape = 'deep'
    payload = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"x","filters":${nested(pick(g, [63, 65, 70, 5_000]), chance(g, 50))}}}}`
  } else if (kind === 1) {
    shape = 'deep batch'
    payload = nested(pick(g, [65, 5_000]), true)
  } else if (kind === 2) {
    shape = 'big batch'
    payload = JSON.stringify(
      Array.from({ length: pick(g, [0, 100, 101, 500]) }, () => ({
        jsonrpc: '2.0',
        id: 1,
        method: 'ping',
      })),
    )
  } else if (kind === 3) {
    shape = 'not JSON-RPC'
    payload = pick(g, [
      '',
      'null',
      '42',
      '"x"',
      '{',
      '[1,2,3]',
      '{"jsonrpc":"2.0"}',
      '[[]]',
      huge(g),
    ])
  } else if (kind <= 7) {
    shape = 'batch'
    payload = JSON.stringify(Array.from({ length: int(g, 1, 6) }, () => message(g, ctx)))
  } else {
    shape = 'message'
    payload = JSON.stringify(message(g, ctx))
  }
  // Mostly right, so that most requests reach the tools; each header is wrong now and then.
  const headers: Record<string, string> = {
    'content-type': chance(g, 90)
      ? pick(g, ['application/json', 'application/json; charset=utf-8'])
      : pick(g, ['text/plain', 'application/jsonx', '']),
    accept: chance(g, 90)
      ? 'application/json, text/event-stream'
      : pick(g, ['application/json', 'text/event-stream', '*/*', '']),
  }
  if (chance(g, 92)) headers.authorization = `Bearer ${ctx.token}`
  else if (chance(g, 50))
    headers.authorization = pick(g, ['Bearer wg_key_not_a_key', 'Basic eDp5', 'Bearer'])
  if (chance(g, 60)) {
    headers['mcp-protocol-version'] = chance(g, 60)
      ? pick(g, ['2025-03-26', '2025-06-18', '2025-11-25'])
      : pick(g, VERSIONS)
  }
  if (chance(g, 15)) {
    headers.origin = pick(g, [
      ...ctx.origins,
      ...ctx.origins,
      ...ctx.origins.map((origin) => origin.replace('http:', 'https:')),
      ...ctx.origins.map((origin) => `${origin}0`),
      'https://evil.example',
      'null',
      'file://',
      'not an origin',
      `https://${'a'.repeat(5_000)}.example`,
    ])
  }
  return { headers, payload, shape }
}
