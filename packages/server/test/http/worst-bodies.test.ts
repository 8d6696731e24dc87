import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'

// The worst bodies up to the body limit, sent to every family of routes that takes one: none may
// hold the event loop (and with it every other request of the process) for more than a few times
// what parsing the heaviest of them takes, which no server can avoid. The bound is a ratio to
// that parse, measured in the same process at the same moment, so a loaded machine moves both
// sides alike; the absolute numbers are reported with the test and in bench/HISTORY.md,
// "Reliability".

let t: TestApp
let ws: ImportResult
let token: string
before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, writableBundle())
  token = tokenOf(ws, 'olive-key')
})
after(() => t.close())

const MAX_RATIO = 4

// The longest the event loop went without turning while `run` ran.
async function longestStall(run: () => Promise<unknown>): Promise<number> {
  let longest = 0
  let last = performance.now()
  let done = false
  const turn = () => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
    if (!done) setImmediate(turn)
  }
  setImmediate(turn)
  await run()
  // The turn queued before this one measures the last stretch, should `run` end in one.
  await new Promise((resolve) => setImmediate(resolve))
  done = true
  return longest
}

// The median of three parses of the body that takes longest to parse.
function slowestParse(bodies: string[]): number {
  let slowest = 0
  for (const body of bodies) {
    const times = [0, 1, 2].map(() => {
      const started = performance.now()
      JSON.parse(body)
      return performance.now() - started
    })
    slowest = Math.max(slowest, times.sort((a, b) => a - b)[1] as number)
  }
  return slowest
}

function worstBodies(base: Record<string, unknown>): Record<string, string> {
  const unknown: Record<string, unknown> = { ...base }
  for (let i = 0; i < 70_000; i++) unknown[`f${i}`] = 1
  let chain: unknown = 1
  for (let i = 0; i < 60; i++) chain = { a: chain }
  const deep = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, chain]))
  return {
    'unknown fields': JSON.stringify(unknown),
    'a long array': JSON.stringify({ ...base, links: Array.from({ length: 150_000 }, () => 'x') }),
    'deep and wide': JSON.stringify({ ...base, deep }),
  }
}

test('the worst body up to the limit holds the event loop no longer than a few parses of it', async (t2) => {
  const canvas = ws.ids.plan as string
  const routes: [string, string, Record<string, unknown>][] = [
    ['POST', '/v1/tasks', { title: 'x', project_id: ws.ids.open }],
    ['POST', '/v1/comments', { body: 'x', on: ws.ids['t-open'] }],
    ['POST', '/v1/canvases', { title: 'x', project_id: ws.ids.open }],
    ['PATCH', `/v1/canvases/${canvas}`, { title: 'x' }],
    ['POST', '/v1/okr/checkins', { value: 1 }],
    ['POST', '/v1/search', { query: 'x' }],
    ['POST', '/v1/webhooks', { url: 'https://example.com/hook' }],
    ['POST', '/v1/api-keys', { name: 'x' }],
    ['POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call' }],
  ]
  const lines: string[] = []
  const baseline = slowestParse(routes.flatMap(([, , base]) => Object.values(worstBodies(base))))
  lines.push(`parsing the heaviest body: ${baseline.toFixed(0)} ms`)
  for (const [method, url, base] of routes) {
    for (const [shape, body] of Object.entries(worstBodies(base))) {
      // Twice, keeping the second: the first also compiles the route's code.
      let stall = 0
      let status = 0
      let answer = ''
      for (let round = 0; round < 2; round++) {
        stall = await longestStall(async () => {
          const reply = await t.app.inject({
            method: method as 'POST',
            url,
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
            payload: body,
          })
          status = reply.statusCode
          answer = reply.body
        })
      }
      lines.push(`${method} ${url} ${shape}: ${status}, ${stall.toFixed(0)} ms`)
      // MCP answers a call it refuses with a JSON-RPC error, in a 200 or a 4xx.
      const refused =
        (status >= 400 && status < 500) || (url === '/mcp' && answer.includes('"error"'))
      assert.ok(refused, `${method} ${url} ${shape}: ${status} ${answer.slice(0, 300)}`)
      assert.ok(
        stall <= MAX_RATIO * baseline,
        `${method} ${url} with ${shape} held the event loop ${stall.toFixed(0)} ms; parsing the heaviest body takes ${baseline.toFixed(0)} ms`,
      )
    }
  }
  t2.diagnostic(lines.join('\n'))
})
