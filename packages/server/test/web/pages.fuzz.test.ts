import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { sql } from 'kysely'
import { PROBLEMS } from '../../src/api/problem-catalogue.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { createLogger } from '../../src/lib/logger.ts'
import { interactionCsrfToken, sessionCsrfToken, signInCsrfToken } from '../../src/web/csrf.ts'
import { hashSessionValue, startSession } from '../../src/web/web-session.ts'
import { importOk, tokenOf, webhookBundle } from '../harness/bundles.ts'
import { pick } from '../harness/malformed/draws.ts'
import {
  type PageFuzzContext,
  type PageRequest,
  pageRequest,
} from '../harness/malformed/page-form.ts'
import { authorizationUrl, pkcePair } from '../harness/oauth-client-requests.ts'
import { fuzzRuns } from '../harness/property-settings.ts'
import { type RouteEntry, routeList } from '../harness/route-list.ts'
import { contentState } from '../harness/row-counts.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { ENGINE } from '../harness/test-database.ts'

// Malformed, forged and oversized requests to every page: the dashboard's and the OAuth sign-in
// and consent pages. Never a 5xx, never a line in the error log, never a redirect off this origin
// (but to the app's own redirect URI), and a form that is refused or not our own changes nothing.
//
//   WORKGRAPH_FUZZ_SEED=…        replay another run (the seed is printed)
//   WORKGRAPH_PAGES_FUZZ_RUNS=…  requests (default 1,000)

const SEED = Number(process.env.WORKGRAPH_FUZZ_SEED ?? 20_261_124)
const RUNS = Number(process.env.WORKGRAPH_PAGES_FUZZ_RUNS ?? fuzzRuns(1_000))
const ORIGIN = 'http://127.0.0.1:8080'
const NATIVE_URI = 'http://127.0.0.1:9999/callback'
const PASSWORD = 'the owner signs in with this'
// Beyond the tables of any write: what the pages themselves may change.
const PAGE_TABLES = ['webhook_endpoints', 'webhook_deliveries', 'web_sessions', 'people']

let t: TestApp
let ws: ImportResult
let ctx: PageFuzzContext
let routes: RouteEntry[]
const logged: { level: number; msg: string }[] = []

before(async () => {
  const logger = createLogger('warn', {
    write: (line: string) => void logged.push(JSON.parse(line)),
  })
  // Sign-in attempts that pass the form check spend the budget (the clock stands still): a few
  // compute a hash, some of them succeed, the rest are 429s.
  t = await startTestApp({ logger, env: { PUBLIC_URL: ORIGIN, OAUTH_SIGN_INS_PER_MINUTE: '8' } })
  const bundle = webhookBundle()
  for (const person of bundle.people) if (person.key === 'olive') person.password = PASSWORD
  bundle.oauth_clients = [
    { key: 'native', name: 'Native app', redirect_uris: [NATIVE_URI], public: true },
  ]
  ws = await importOk(t.db.db, bundle)
  const owner = client(t.app, tokenOf(ws, 'olive-key'))
  const webhook = await owner.post('/v1/webhooks', {
    url: 'https://hooks.example.test/in',
    events: ['task.created'],
  })
  assert.equal(webhook.status, 201, webhook.body)
  const keys = (await owner.get('/v1/tokens?limit=100')).json.data as { id: string }[]
  await t.app.ready()
  routes = routeList(t.app).filter(
    (route) =>
      route.url.startsWith('/oauth/interaction') ||
      !/^\/(v1|mcp|oauth|\.well-known|healthz|readyz)(\/|$)/.test(route.url),
  )
  ctx = {
    origin: ORIGIN,
    session: await newSession(),
    signIn: preSession(),
    person: { email: 'olive@example.test', password: PASSWORD },
    interaction: await newInteraction(ws.oauth_clients.native?.client_id as string),
    ids: [...Object.values(ws.ids), webhook.json.id, ...keys.map((key) => key.id)],
  }
})
after(() => t.close())

// Sessions this file started itself; any other was made by a sign-in the fuzz got through.
let sessionsStarted = 0

/** A session of the workspace's owner: the cookie and its forms' token. */
async function newSession() {
  sessionsStarted++
  const value = await startSession(t.db.db, {
    workspaceId: ws.workspace_id,
    personId: ws.ids.olive as string,
    now: t.clock.now(),
  })
  const csrf = sessionCsrfToken(t.deps.webKeys.csrfKey, hashSessionValue(value))
  return { cookie: `workgraph_session=${value}`, csrf }
}

/** A signed-out browser's pre-session cookie, and the sign-in form's token bound to it. */
function preSession() {
  const value = 'P'.repeat(43)
  return {
    cookie: `workgraph_sign_in=${value}`,
    csrf: signInCsrfToken(t.deps.webKeys.csrfKey, value),
  }
}

/** An OAuth authorization in progress, at its sign-in page: its id, cookies and token. */
async function newInteraction(clientId: string) {
  const started = await t.app.inject({
    method: 'GET',
    url: authorizationUrl(ORIGIN, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: NATIVE_URI,
      scope: 'project:read',
      state: 's',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    }).slice(ORIGIN.length),
  })
  const location = String(started.headers.location)
  const uid = /\/oauth\/interaction\/([^/?]+)$/.exec(location)?.[1]
  assert.ok(uid, `no interaction: ${started.statusCode} ${location}`)
  const cookie = [started.headers['set-cookie'] ?? []]
    .flat()
    .map((line) => line.split(';')[0])
    .join('; ')
  return { uid, cookie, csrf: interactionCsrfToken(t.deps.webKeys.csrfKey, uid) }
}

/** What a page write may change, and what only a refused one must leave alone. */
async function pageState() {
  const artifacts = await sql<{ n: number }>`
    select count(*)::int as n from oauth_artifacts where model <> 'Interaction'`.execute(t.db.db)
  return {
    ...(await contentState(t.db.db, PAGE_TABLES)),
    oauth_artifacts: String(artifacts.rows[0]?.n),
  }
}

function describe(request: PageRequest, status: number, body: string): string {
  const payload = (request.payload ?? '').slice(0, 200)
  return `${request.fault}: ${request.method} ${request.url.slice(0, 200)} ${JSON.stringify(request.headers).slice(0, 300)} ${JSON.stringify(payload)} → ${status} ${body.slice(0, 300)}`
}

function checkAnswer(
  request: PageRequest,
  status: number,
  headers: Record<string, unknown>,
  body: string,
) {
  const what = describe(request, status, body)
  assert.ok(status < 500, what)
  const type = String(headers['content-type'] ?? '')
  if (status >= 300 && status < 400) {
    // A redirect stays on this origin, but for the app's own redirect URI.
    const to = new URL(String(headers.location), ORIGIN)
    const app = new URL(NATIVE_URI)
    assert.ok(
      to.origin === ORIGIN || `${to.origin}${to.pathname}` === `${app.origin}${app.pathname}`,
      what,
    )
  } else if (status >= 400 && !type.startsWith('text/html')) {
    // Only a body refused before any page sees it is problem+json, with a code of the catalogue.
    assert.match(type, /^application\/problem\+json/, what)
    if (request.method === 'HEAD') return
    const problem = JSON.parse(body)
    assert.equal(PROBLEMS[problem.code as keyof typeof PROBLEMS]?.status, status, what)
  }
}

test(`${RUNS} malformed and forged requests to the pages: no 5xx, no error logged, nothing written`, async () => {
  const started = Date.now()
  const statuses = new Map<number, number>()
  let state = await pageState()
  logged.length = 0
  await fc.assert(
    fc.asyncProperty(fc.gen(), async (g) => {
      const route = pick(g, routes)
      const request = pageRequest(g, ctx, route)
      const response = await t.app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: request.headers,
        ...(request.payload !== undefined && { payload: request.payload }),
      })
      const status = response.statusCode
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      checkAnswer(request, status, response.headers, response.body)
      const what = describe(request, status, response.body)
      assert.deepEqual(
        logged.filter((line) => line.level >= 50 || /already sent/i.test(line.msg)),
        [],
        what,
      )
      if (request.method !== 'POST') return
      const now = await pageState()
      if (!request.genuine || status >= 400) assert.deepEqual(now, state, `written: ${what}`)
      state = now
      // A genuine sign-out ends the session the rest of the run uses: start another.
      if (route.url === '/sign-out' && status === 303) {
        ctx.session = await newSession()
        state = await pageState()
      }
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  )
  const sessions = await t.db.db
    .selectFrom('web_sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  const signIns = Number(sessions.n) - sessionsStarted
  const line = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ')
  console.log(
    `pages fuzz (${ENGINE}, seed ${SEED}): ${RUNS} requests to ${routes.length} routes in ${Date.now() - started} ms, ${signIns} dashboard sign-ins through; ${line}`,
  )
})
