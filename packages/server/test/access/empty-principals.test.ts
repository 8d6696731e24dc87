import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { ALL_READ_SCOPES, ALL_WRITE_SCOPES, importOk, smallBundle } from '../harness/bundles.ts'
import { fuzzRuns } from '../harness/property-settings.ts'
import { routeList } from '../harness/route-list.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// Callers who belong to nothing: a guest and a member in no team and no project, an integration
// in no project, and keys that read no kind at all. Their id lists (teams, projects, readable
// kinds) are empty, and an empty list must never reach SQL as `in ()`: every list, record and
// MCP tool answers them, never with a 5xx.

let t: TestApp
let ws: ImportResult

const EVERY_SCOPE = [...ALL_READ_SCOPES, ...ALL_WRITE_SCOPES]
// A key must hold a scope: these read nothing.
const NO_READS = ['task:write', 'webhook:manage']

function loners(): Bundle {
  const base = smallBundle()
  return {
    ...base,
    people: [
      ...base.people,
      { key: 'lone-guest', name: 'Lone Guest', email: 'lone-guest@example.test', role: 'guest' },
      {
        key: 'lone-member',
        name: 'Lone Member',
        email: 'lone-member@example.test',
        role: 'member',
      },
    ],
    integrations: [...(base.integrations ?? []), { key: 'lone-bot', name: 'Lone bot' }],
    api_keys: [
      ...(base.api_keys ?? []),
      { key: 'guest-all', person: 'lone-guest', scopes: EVERY_SCOPE },
      { key: 'member-all', person: 'lone-member', scopes: EVERY_SCOPE },
      { key: 'guest-none', person: 'lone-guest', scopes: NO_READS },
      { key: 'member-none', person: 'lone-member', scopes: NO_READS },
    ],
    workspace_tokens: [
      ...(base.workspace_tokens ?? []),
      { key: 'bot-all', integration: 'lone-bot', scopes: EVERY_SCOPE },
      { key: 'bot-none', integration: 'lone-bot', scopes: ['task:write'] },
    ],
  }
}

const TOKENS = ['guest-all', 'member-all', 'guest-none', 'member-none', 'bot-all', 'bot-none']

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, loners())
})
after(() => t.close())

const tokenOf = (key: string) => (ws.api_keys[key] ?? ws.workspace_tokens[key])?.token as string
const selfOf = (key: string) =>
  ws.ids[
    key.startsWith('guest') ? 'lone-guest' : key.startsWith('member') ? 'lone-member' : 'lone-bot'
  ] as string

test('every /v1 read answers a caller who belongs to nothing, never with a 5xx', async () => {
  const reads = routeList(t.app).filter(
    (route) => route.method === 'GET' && route.url.startsWith('/v1/'),
  )
  assert.ok(reads.length > 20, `${reads.length} reads`)
  for (const key of TOKENS) {
    const api = client(t.app, tokenOf(key))
    const self = selfOf(key)
    for (const route of reads) {
      const url = route.url.replace(/:[a-z_]+/g, self)
      for (const query of ['', '?for=me', `?for=${self}`, '?for=workspace', '?limit=1']) {
        const reply = await api.get(`${url}${query}`)
        assert.ok(reply.status < 500, `${key} GET ${url}${query}: ${reply.body.slice(0, 300)}`)
      }
    }
    for (const body of [
      { query: 'anything' },
      { query: 'my tasks due soon' },
      { query: 'x', types: ['project'] },
    ]) {
      const reply = await api.post('/v1/search', body)
      assert.ok(reply.status < 500, `${key} search ${JSON.stringify(body)}: ${reply.body}`)
    }
  }
})

// What each tool is called with: the arguments an agent's first calls carry.
const CALLS: Record<string, Record<string, unknown>[]> = {
  workspace: [{}, { for: 'workspace' }, { for: 'me' }],
  search: [{ query: 'anything' }, { query: 'what is overdue' }],
  list: ['project', 'task', 'canvas', 'okr', 'person', 'team'].map((type) => ({ type })),
  fetch: [{ id: 'SELF' }, { ids: ['SELF'] }],
  activity: [{}],
  changes: [{}, { from: 'start' }],
  create_task: [{ title: 'x', dry_run: true }],
  update_task: [{ task_id: 'tsk_00000000000000000000000000', status: 'done', dry_run: true }],
  add_comment: [{ resource_id: 'SELF', body: 'x', dry_run: true }],
  okr_checkin: [{ key_result_id: 'kr_00000000000000000000000000', value: 1, dry_run: true }],
}

/** One JSON-RPC request to /mcp as a token: its result or error, parsed. */
async function rpc(token: string, method: string, params: Record<string, unknown>) {
  const reply = await t.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    payload: { jsonrpc: '2.0', id: 1, method, params },
  })
  const text = reply.headers['content-type']?.toString().startsWith('text/event-stream')
    ? (reply.body.split('\n').find((line) => line.startsWith('data: ')) ?? '').slice(6)
    : reply.body
  return { status: reply.statusCode, text }
}

test('every MCP tool, prompt and resource answers a caller who belongs to nothing, never with a 5xx', async () => {
  for (const key of TOKENS) {
    const token = tokenOf(key)
    const listed = await rpc(token, 'tools/list', {})
    assert.equal(listed.status, 200, listed.text)
    const tools = (JSON.parse(listed.text).result.tools as { name: string }[]).map((x) => x.name)
    assert.ok(tools.includes('workspace'), `${key}: ${tools}`)
    for (const name of tools) {
      for (const args of CALLS[name] ?? [{}]) {
        const filled = JSON.parse(JSON.stringify(args).replaceAll('SELF', selfOf(key)))
        const answer = await rpc(token, 'tools/call', { name, arguments: filled })
        assert.equal(answer.status, 200, `${key} ${name}: ${answer.text}`)
        assert.doesNotMatch(
          answer.text,
          /Error 5\d\d|"code":-326/,
          `${key} ${name} ${JSON.stringify(filled)}`,
        )
      }
    }
    for (const [method, params] of [
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['prompts/list', {}],
    ] as const) {
      const answer = await rpc(token, method, params)
      assert.ok(answer.status < 500, `${key} ${method}: ${answer.text}`)
      assert.doesNotMatch(answer.text, /"code":-32603/, `${key} ${method}`)
    }
  }
})

// Ids of every kind the workspace holds (all hidden from the loners but themselves), ids that
// name nothing, and strings that are not ids at all.
const NOT_IDS = [
  'tsk_x',
  `prj_${'0'.repeat(26)}`,
  `usr_${'z'.repeat(26)}`,
  'me',
  '%20',
  'x'.repeat(300),
]

test('every /v1 route with an id in its path, as a caller who belongs to nothing: never a 5xx', async () => {
  const routes = routeList(t.app).filter(
    (route) => route.url.startsWith('/v1/') && route.url.includes(':') && route.method !== 'HEAD',
  )
  const ids = [...new Set(Object.values(ws.ids)), ...NOT_IDS]
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...routes),
      fc.constantFrom(...ids),
      fc.constantFrom(...TOKENS),
      async (route, id, key) => {
        const url = route.url.replace(/:[a-z_]+/g, encodeURIComponent(id))
        const write = route.method !== 'GET' && route.method !== 'DELETE'
        const reply = await client(t.app, tokenOf(key)).send({
          method: route.method as 'GET',
          url: write ? `${url}?dry_run=true` : url,
          ...(write ? { payload: {} } : {}),
        })
        assert.ok(reply.status < 500, `${key} ${route.method} ${url}: ${reply.body.slice(0, 300)}`)
      },
    ),
    { numRuns: fuzzRuns(600), seed: 20261129 },
  )
})
