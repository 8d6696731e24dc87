import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { PROBLEMS } from '../../src/api/problem-catalogue.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { type McpFuzzContext, mcpFuzzRequest } from '../harness/mcp-fuzz-request.ts'
import { fuzzRuns } from '../harness/property-settings.ts'
import { contentState } from '../harness/row-counts.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { ENGINE } from '../harness/test-database.ts'

// Random JSON-RPC messages and batches to /mcp (docs/mcp.md): made-up methods and tools, random
// and huge arguments, bodies nested deep, wrong protocol versions, odd Origins. Nothing may answer
// 5xx or hang, an error is a JSON-RPC error or a problem of the catalogue, no answer quotes an
// exception, and nothing is written (every write the generator makes is a dry run or invalid).
//
//   WORKGRAPH_FUZZ_SEED=…      replay another run (the seed is printed)
//   WORKGRAPH_MCP_FUZZ_RUNS=…  requests (default 1,000)

const SEED = Number(process.env.WORKGRAPH_FUZZ_SEED ?? 20_261_123)
const RUNS = Number(process.env.WORKGRAPH_MCP_FUZZ_RUNS ?? fuzzRuns(1_000))

let t: TestApp
let ws: ImportResult
let ctx: McpFuzzContext
before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, writableBundle())
  const token = tokenOf(ws, 'alice-key')
  ctx = {
    token,
    ids: Object.values(ws.ids),
    origins: [...new Set([t.deps.config.publicUrl, t.deps.config.appUrl])],
  }
  await client(t.app, token).get('/v1/workspace') // the token's last use, recorded before counting
})
after(() => t.close())

// An answer's JSON-RPC messages, however sent: one object, an array, or an event stream.
function messagesOf(contentType: string, body: string): Record<string, unknown>[] {
  if (contentType.startsWith('text/event-stream')) {
    return body
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line.length > 6)
      .map((line) => JSON.parse(line.slice(6)))
  }
  const parsed = JSON.parse(body)
  return Array.isArray(parsed) ? parsed : [parsed]
}

test(`${RUNS} hostile requests to /mcp: no 5xx, errors as the protocol says, nothing written`, async () => {
  const started = Date.now()
  const before = await contentState(t.db.db)
  const statuses = new Map<number, number>()
  await fc.assert(
    fc.asyncProperty(fc.gen(), async (g) => {
      const request = mcpFuzzRequest(g, ctx)
      const response = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: request.headers,
        payload: request.payload,
      })
      const status = response.statusCode
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      const contentType = String(response.headers['content-type'] ?? '')
      const what = `${request.shape} ${JSON.stringify(request.headers).slice(0, 300)} ${request.payload.slice(0, 400)} → ${status} ${response.body.slice(0, 400)}`
      assert.ok(status < 500, what)
      if (status === 202) return
      if (contentType.startsWith('application/problem+json')) {
        const problem = JSON.parse(response.body)
        assert.ok(status >= 400, what)
        assert.equal(PROBLEMS[problem.code as keyof typeof PROBLEMS]?.status, status, what)
        return
      }
      // Everything else is JSON-RPC: answers, and errors that quote no exception.
      for (const message of messagesOf(contentType, response.body)) {
        assert.equal(message.jsonrpc, '2.0', what)
        assert.ok('result' in message || 'error' in message, what)
      }
      assert.doesNotMatch(response.body, /\bat [\w.<>]+ \(|\.ts:\d+|node:internal/, what)
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  )
  assert.deepEqual(await contentState(t.db.db), before, 'a hostile request changed something')
  const line = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ')
  console.log(
    `mcp fuzz (${ENGINE}, seed ${SEED}): ${RUNS} requests in ${Date.now() - started} ms; ${line}`,
  )
})
