import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { createLogger } from '../../src/lib/logger.ts'
import { sessionCsrfToken } from '../../src/web/csrf.ts'
import { hashSessionValue, startSession } from '../../src/web/web-session.ts'
import { importOk, tokenOf, webhookBundle } from '../harness/bundles.ts'
import { routeList } from '../harness/route-list.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// Every dashboard form that names something in its path, sent for something that is not there:
// one clean 404 page, and not a line in the error log (a member could otherwise flood it).

const ORIGIN = 'http://127.0.0.1:8080'
// Values each form accepts, so that only the unknown id is wrong (and a fresh form key each time).
const FIELDS = {
  status: 'disabled',
  events: 'task.created',
  grace_period_seconds: '0',
  since: '2026-01-01T00:00',
  overlap_seconds: '0',
}

let t: TestApp
let ws: ImportResult
let logged: Record<string, unknown>[]
let cookie: string
let csrf: string
let endpointId: string
before(async () => {
  logged = []
  const logger = createLogger('warn', {
    write: (line: string) => void logged.push(JSON.parse(line)),
  })
  t = await startTestApp({ logger, env: { PUBLIC_URL: ORIGIN } })
  ws = await importOk(t.db.db, webhookBundle())
  const owner = client(t.app, tokenOf(ws, 'olive-key'))
  const made = await owner.post('/v1/webhooks', {
    url: 'https://hooks.example.test/in',
    events: ['task.created'],
  })
  assert.equal(made.status, 201, made.body)
  endpointId = made.json.id
  const value = await startSession(t.db.db, {
    workspaceId: ws.workspace_id,
    personId: ws.ids.olive as string,
    now: t.clock.now(),
  })
  cookie = `workgraph_session=${value}`
  csrf = sessionCsrfToken(t.deps.webKeys.csrfKey, hashSessionValue(value))
})
after(() => t.close())

// The dashboard's POST routes with an id in their path (API paths excluded). A link's token is
// no id: a link that does not work gets its own page, tested with its route (join.routes.test.ts).
function formsWithIds(): string[] {
  return routeList(t.app)
    .filter((route) => route.method === 'POST' && route.url.includes('/:'))
    .filter((route) => !route.url.includes('/:token'))
    .filter((route) => !/^\/(v1|mcp|oauth|\.well-known)(\/|$)/.test(route.url))
    .map((route) => route.url)
}

// Unknown ids: made up, well-formed, and real ids of another kind.
function unknownPaths(url: string): string[] {
  const fill = (id: string, deliveryId: string) =>
    url.replace(':id', id).replace(':deliveryId', deliveryId)
  // A project's own forms take a real id of another kind than a project.
  const other = (url.startsWith('/projects/') ? ws.ids['t-open'] : ws.ids.open) as string
  const paths = [
    fill('whk_unknown', 'dlv_unknown'),
    fill(`whk_${'0'.repeat(26)}`, `dlv_${'0'.repeat(26)}`),
    fill(other, other),
  ]
  if (url.includes(':deliveryId')) paths.push(fill(endpointId, `dlv_${'0'.repeat(26)}`))
  return paths
}

test('a dashboard form on an unknown id answers one 404 page and logs nothing', async () => {
  const forms = formsWithIds()
  assert.ok(forms.length >= 8, `forms found: ${forms.join(', ')}`)
  for (const url of forms) {
    for (const path of unknownPaths(url)) {
      logged.length = 0
      const reply = await t.app.inject({
        method: 'POST',
        url: path,
        headers: {
          cookie,
          origin: ORIGIN,
          'sec-fetch-site': 'same-origin',
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams({ csrf, ...FIELDS, form_key: randomUUID() }).toString(),
      })
      assert.equal(
        reply.statusCode,
        404,
        `${path}: ${/<main[^>]*>([\s\S]*?)<\/main>/.exec(reply.body)?.[1]}`,
      )
      assert.match(String(reply.headers['content-type']), /^text\/html/, path)
      assert.match(reply.body, /<h1>Page not found<\/h1>/, path)
      // Pino writes synchronously to the stream; give any late rejection a turn to be logged.
      await new Promise((resolve) => setImmediate(resolve))
      assert.deepEqual(logged, [], `${path} logged`)
    }
  }
})

test("a browser's GET of an unknown page is answered once, with the HTML 404 and no warning", async () => {
  logged.length = 0
  const reply = await t.app.inject({
    method: 'GET',
    url: '/no/such/page',
    headers: { cookie, accept: 'text/html' },
  })
  assert.equal(reply.statusCode, 404)
  assert.match(String(reply.headers['content-type']), /^text\/html/)
  await new Promise((resolve) => setImmediate(resolve))
  assert.deepEqual(logged, [])
})
