import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { PROBLEMS } from '../../src/api/problem-catalogue.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { METADATA_PATHS, OAUTH_ROUTES } from '../../src/oauth/oauth-routes.ts'
import { importOk, tokenOf, webhookBundle } from '../harness/bundles.ts'
import { anyRequest } from '../harness/malformed/any-request.ts'
import type { FuzzContext, FuzzRequest } from '../harness/malformed/fuzz-request.ts'
import { inlineRefs } from '../harness/malformed/inline-refs.ts'
import { rawHttpRequest } from '../harness/malformed/raw-http-request.ts'
import { pkcePair } from '../harness/oauth-client-requests.ts'
import { fuzzRuns } from '../harness/property-settings.ts'
import { type RawResponse, rawRequest } from '../harness/raw-http.ts'
import { routeList } from '../harness/route-list.ts'
import { contentState } from '../harness/row-counts.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { ENGINE } from '../harness/test-database.ts'

// Thousands of malformed requests against every route of the real app, then raw bytes that are
// barely HTTP against a listening server. Nothing may answer 5xx or hang, every error of the API
// and of the HTTP layer is problem+json with a code of the catalogue, and nothing is written.
//
//   WORKGRAPH_FUZZ_SEED=…  replay another run (the seed is printed)
//   WORKGRAPH_FUZZ_RUNS=…  requests through inject (default 5,500 on PostgreSQL, a third on PGlite); raw ones: WORKGRAPH_FUZZ_RAW_RUNS

const SEED = Number(process.env.WORKGRAPH_FUZZ_SEED ?? 20_261_123)
const RUNS = Number(process.env.WORKGRAPH_FUZZ_RUNS ?? fuzzRuns(5_500))
const RAW_RUNS = Number(process.env.WORKGRAPH_FUZZ_RAW_RUNS ?? 300)
const NATIVE_URI = 'http://127.0.0.1:9999/callback'

let t: TestApp
let ws: ImportResult
let ctx: FuzzContext
let port: number
before(async () => {
  t = await startTestApp({ env: { OAUTH_DYNAMIC_REGISTRATION: 'true' } })
  const bundle = webhookBundle()
  bundle.oauth_clients = [
    { key: 'native', name: 'Native app', redirect_uris: [NATIVE_URI], public: true },
  ]
  ws = await importOk(t.db.db, bundle)
  const token = tokenOf(ws, 'olive-key') // every scope, and the owner's role
  const api = client(t.app, token)
  const canvas = await api.post('/v1/canvases', { title: 'Canvas', project_id: ws.ids.open })
  const webhook = await api.post('/v1/webhooks', {
    url: 'https://hooks.example.test/in',
    events: ['task.created'],
  })
  assert.equal(canvas.status, 201, canvas.body)
  assert.equal(webhook.status, 201, webhook.body)
  const ids: Record<string, string[]> = {}
  const all = [
    ...Object.values(ws.ids),
    ...Object.values(ws.api_keys).map((key) => key.id),
    canvas.json.id,
    webhook.json.id,
  ]
  for (const id of all) {
    const prefix = id.split('_')[0] as string
    ids[prefix] = [...(ids[prefix] ?? []), id]
  }
  await t.app.ready()
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  port = (t.app.server.address() as AddressInfo).port
  ctx = {
    routes: routeList(t.app),
    openapi: inlineRefs(t.app.swagger()),
    token,
    ids,
    oauth: {
      clientId: ws.oauth_clients.native?.client_id as string,
      redirectUri: NATIVE_URI,
      challenge: pkcePair().challenge,
    },
    providerPaths: new Set<string>([
      ...Object.values(OAUTH_ROUTES),
      `${OAUTH_ROUTES.authorization}/:uid`,
      ...METADATA_PATHS,
    ]),
  }
  await api.get('/v1/workspace') // the token's last use is recorded once; do it before counting
})
after(() => t.close())

/** Counts of answers by status, overall and per kind of route, for the summary line. */
class Tally {
  readonly #counts = new Map<string, Map<number, number>>()
  sent = 0

  add(status: number, target: string) {
    this.sent++
    for (const key of ['all', target]) {
      const counts = this.#counts.get(key) ?? new Map<number, number>()
      counts.set(status, (counts.get(status) ?? 0) + 1)
      this.#counts.set(key, counts)
    }
  }

  line(): string {
    const show = (counts: Map<number, number>) =>
      [...counts]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}: ${n}`)
        .join(', ')
    return [...this.#counts].map(([key, counts]) => `${key} {${show(counts)}}`).join('; ')
  }
}

function describe(request: FuzzRequest, status: number, body: string): string {
  const payload = request.payload === undefined ? '' : String(request.payload).slice(0, 300)
  return `${request.fault}: ${request.method} ${request.url.slice(0, 300)} ${JSON.stringify(request.headers).slice(0, 300)} ${JSON.stringify(payload)} → ${status} ${body.slice(0, 400)}`
}

/** A problem+json answer whose code is in the catalogue with this very status. */
function assertProblem(
  status: number,
  contentType: string | undefined,
  body: string,
  what: string,
  head = false,
) {
  assert.match(contentType ?? '', /^application\/problem\+json/, what)
  if (head) return
  const problem = JSON.parse(body)
  assert.ok(Object.hasOwn(PROBLEMS, problem.code), what)
  assert.equal(PROBLEMS[problem.code as keyof typeof PROBLEMS].status, status, what)
  assert.equal(problem.status, status, what)
}

function isJsonRpcError(body: string): boolean {
  try {
    const message = JSON.parse(body)
    return message.jsonrpc === '2.0' && typeof message.error?.code === 'number'
  } catch {
    return false
  }
}

function checkAnswer(request: FuzzRequest, status: number, contentType: string, body: string) {
  const what = describe(request, status, body)
  assert.ok(status < 500, what)
  const head = request.method === 'HEAD'
  if (status < 400) {
    // Reads may succeed (a NUL-free query on a GET); a write with a fault may not.
    if (request.target === 'api')
      assert.ok(
        ['GET', 'HEAD', 'OPTIONS'].includes(request.method) || request.url.startsWith('/v1/search'),
        what,
      )
    return
  }
  if (request.target === 'api' && request.url.startsWith('/mcp') && isJsonRpcError(body)) {
    // Past authentication and parsing, MCP's own errors are JSON-RPC errors, as the protocol
    // prescribes (docs/mcp.md, "Errors"); every other refusal of /mcp is a problem.
    assert.match(contentType, /^application\/json/, what)
    return
  }
  if (request.target === 'api') return assertProblem(status, contentType, body, what, head)
  if (request.target === 'pages') {
    // Their own HTML error page, or a problem (a body too large or of the wrong type).
    if (!contentType.startsWith('text/html')) assertProblem(status, contentType, body, what, head)
    return
  }
  // The provider answers in OAuth's format: JSON with `error`, or its HTML error page.
  if (!head && contentType.startsWith('application/json'))
    assert.equal(typeof JSON.parse(body).error, 'string', what)
}

test(`${RUNS} malformed requests to every route: no 5xx, problem+json errors, nothing written`, async () => {
  const started = Date.now()
  const before = await contentState(t.db.db)
  const tally = new Tally()
  const untouched = new Set(ctx.routes)
  await fc.assert(
    fc.asyncProperty(fc.gen(), async (g) => {
      const { route, request } = anyRequest(g, ctx)
      untouched.delete(route)
      const response = await t.app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: request.headers,
        ...(request.payload !== undefined ? { payload: request.payload } : {}),
      })
      tally.add(response.statusCode, request.target)
      checkAnswer(
        request,
        response.statusCode,
        String(response.headers['content-type'] ?? ''),
        response.body,
      )
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  )
  assert.deepEqual(await contentState(t.db.db), before, 'a refused request changed something')
  assert.deepEqual([...untouched], [], 'routes that got no request')
  console.log(
    `fuzz (${ENGINE}, seed ${SEED}): ${tally.sent} requests to ${ctx.routes.length} routes in ${Date.now() - started} ms; by status ${tally.line()}`,
  )
  assert.ok(tally.sent >= Math.min(RUNS, 5_000))
})

test(`${RAW_RUNS} requests of raw bytes: an answer every time, problem+json, never 5xx`, async () => {
  const started = Date.now()
  const before = await contentState(t.db.db)
  const tally = new Tally()
  await fc.assert(
    fc.asyncProperty(fc.gen(), async (g) => {
      const { bytes, fault } = rawHttpRequest(g, ctx.token)
      const head = bytes.subarray(0, 5).toString('latin1') === 'HEAD '
      let reply: RawResponse
      try {
        reply = await rawRequest(port, bytes, { head })
      } catch (error) {
        assert.fail(
          `${fault}: ${JSON.stringify(bytes.toString('latin1').slice(0, 300))}: ${(error as Error).message}`,
        )
      }
      tally.add(reply.status, 'raw')
      const what = `${fault}: ${JSON.stringify(bytes.toString('latin1').slice(0, 300))} → ${JSON.stringify(reply).slice(0, 500)}`
      assert.ok(reply.status < 500, what)
      if (reply.status >= 400)
        assertProblem(reply.status, reply.headers['content-type'], reply.body, what, head)
    }),
    { seed: SEED, numRuns: RAW_RUNS, endOnFailure: true },
  )
  assert.deepEqual(await contentState(t.db.db), before, 'a refused request changed something')
  console.log(
    `fuzz raw HTTP (${ENGINE}, seed ${SEED}): ${tally.sent} requests in ${Date.now() - started} ms; by status ${tally.line()}`,
  )
})
