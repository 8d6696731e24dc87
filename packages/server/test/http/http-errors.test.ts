import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { PROBLEMS } from '../../src/api/problem-catalogue.ts'
import { importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

let t: TestApp
let token: string
before(async () => {
  t = await startTestApp({ env: { BODY_LIMIT_BYTES: '4096' } })
  token = tokenOf(await importOk(t.db.db, smallBundle()), 'alice-key')
})
after(() => t.close())

test("a problem's type is the address of a page that says what its code means", async () => {
  const reply = await client(t.app).get('/v1/tasks')
  assert.equal(reply.status, 401)
  const type = new URL(String(reply.json.type))
  assert.equal(type.origin, new URL(t.deps.config.publicUrl).origin)
  const page = await t.app.inject({ method: 'GET', url: type.pathname })
  assert.equal(page.statusCode, 200)
  assert.match(String(page.headers['content-type']), /^text\/html/)
  assert.match(page.body, /<h1>Authentication required<\/h1>/)
  assert.match(page.body, /No <code>Authorization: Bearer …<\/code> header\./)
  const unknown = await t.app.inject({ method: 'GET', url: '/errors/no_such_code' })
  assert.equal(unknown.statusCode, 404)
  const index = await t.app.inject({ method: 'GET', url: '/errors' })
  for (const code of Object.keys(PROBLEMS)) assert.ok(index.body.includes(`href="/errors/${code}"`))
})

function assertProblem(
  reply: { status: number; headers: Record<string, unknown>; json: Record<string, unknown> },
  status: number,
  code: string,
) {
  assert.equal(reply.status, status)
  assert.match(String(reply.headers['content-type']), /^application\/problem\+json/)
  assert.equal(reply.json.code, code)
  assert.equal(reply.json.status, status)
  assert.ok(Object.hasOwn(PROBLEMS, code))
  assert.equal(reply.json.type, `${t.deps.config.publicUrl}/errors/${code}`)
  assert.match(String(reply.json.request_id), /^req_/)
  assert.equal(reply.headers['x-request-id'], reply.json.request_id)
}

test('unknown routes are a problem+json 404', async () => {
  assertProblem(await client(t.app, token).get('/v2/projects'), 404, 'not_found')
  assertProblem(await client(t.app).get('/v1'), 404, 'not_found')
  assertProblem(await client(t.app).get('/v1/nope/x'), 404, 'not_found')
  // Even a browser gets problem+json on the API's paths.
  const browser = { accept: 'text/html,*/*' }
  assertProblem(await client(t.app).get('/v1/nope', browser), 404, 'not_found')
})

test('a browser gets the dashboard: an HTML 404 for unknown pages, sign-in for the home', async () => {
  const page = await client(t.app).get('/no/such/page', { accept: 'text/html,*/*' })
  assert.equal(page.status, 404)
  assert.match(String(page.headers['content-type']), /^text\/html/)
  assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/)
  const home = await client(t.app).get('/')
  assert.equal(home.status, 303)
  assert.equal(home.headers.location, '/sign-in')
})

test('a known path with another method is a 405 with Allow', async () => {
  const reply = await client(t.app, token).delete('/v1/projects')
  assertProblem(reply, 405, 'method_not_allowed')
  assert.equal(reply.headers.allow, 'GET, HEAD, POST')
})

test('query strings are validated: wrong types, ranges and unknown parameters', async () => {
  const api = client(t.app, token)
  const reply = await api.get('/v1/projects?limit=abc&colour=red&status=nope')
  assertProblem(reply, 422, 'validation_failed')
  const paths = reply.json.errors.map((e: { path: string }) => e.path).sort()
  assert.deepEqual(paths, ['/colour', '/limit', '/status/0'])
  assertProblem(await api.get('/v1/projects?limit=101'), 422, 'validation_failed')
  assertProblem(await api.get('/v1/projects?limit=-1'), 422, 'validation_failed')
  assertProblem(await api.get('/v1/projects?limit=1.5'), 422, 'validation_failed')
})

test('a malformed cursor is a 400 invalid_request', async () => {
  assertProblem(
    await client(t.app, token).get('/v1/projects?cursor=not-a-cursor'),
    400,
    'invalid_request',
  )
})

test('request ids: a well-formed incoming id is echoed, anything else is replaced', async () => {
  const api = client(t.app, token)
  const kept = await api.get('/v1/projects', { 'x-request-id': 'trace-123.abc' })
  assert.equal(kept.headers['x-request-id'], 'trace-123.abc')
  const replaced = await api.get('/v1/projects', { 'x-request-id': 'bad id with spaces<script>' })
  assert.match(String(replaced.headers['x-request-id']), /^req_[0-9a-z]{26}$/)
})

test('authentication failures are 401 with a challenge; missing scopes are 403 naming them', async () => {
  const anonymous = await client(t.app).get('/v1/projects')
  assertProblem(anonymous, 401, 'unauthenticated')
  assert.equal(
    anonymous.headers['www-authenticate'],
    'Bearer realm="workgraph", resource_metadata="http://127.0.0.1:8080/.well-known/oauth-protected-resource"',
  )
  for (const header of [
    'Bearer wg_key_nope',
    'Bearer wg_at_nope',
    'Basic abc',
    'Bearer',
    `Bearer ${token}x`,
    `Bearer ${token.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'))}`,
  ]) {
    const reply = await client(t.app).get('/v1/projects', { authorization: header })
    assertProblem(reply, 401, 'invalid_token')
    assert.match(String(reply.headers['www-authenticate']), /error="invalid_token"/)
  }
})

test('fuzzed requests never produce a 5xx and always answer in problem+json when failing', async () => {
  const methods = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD')
  const segment = fc.oneof(
    fc.constantFrom(
      'v1',
      'projects',
      'workspace',
      'resources',
      'healthz',
      'openapi.json',
      '..',
      '%2e%2e',
      '%00',
      '%E0%A4%A',
      '😀',
      ' ',
    ),
    fc.string({ maxLength: 20 }).map(encodeURIComponent),
  )
  const path = fc
    .array(segment, { minLength: 0, maxLength: 5 })
    .map((parts) => `/${parts.join('/')}`)
  const query = fc.oneof(
    fc.constant(''),
    fc.string({ maxLength: 40 }).map((q) => `?${q}`),
    fc.constantFrom(
      '?limit=9999999999999999999',
      '?cursor=%ff',
      '?status=active&status=',
      '?limit[]=1',
    ),
  )
  const body = fc.oneof(
    fc.constant(undefined),
    fc.json(),
    fc.string({ maxLength: 100 }),
    fc.constant('x'.repeat(10_000)),
  )
  const contentType = fc.constantFrom(
    undefined,
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/json; charset=latin1',
    'multipart/form-data',
  )
  await fc.assert(
    fc.asyncProperty(
      methods,
      path,
      query,
      body,
      contentType,
      fc.boolean(),
      async (method, p, q, payload, type, withToken) => {
        const headers: Record<string, string> = {}
        if (type) headers['content-type'] = type
        if (withToken) headers.authorization = `Bearer ${token}`
        const reply = await t.app.inject({
          method: method as 'GET',
          url: `${p}${q}`,
          headers,
          ...(payload !== undefined && method !== 'GET' && method !== 'HEAD' ? { payload } : {}),
        })
        assert.ok(reply.statusCode < 500, `${method} ${p}${q} → ${reply.statusCode} ${reply.body}`)
        // Dashboard pages answer in HTML; everything else in problem+json.
        const page = /^text\/html/.test(String(reply.headers['content-type']))
        if (reply.statusCode >= 400 && method !== 'HEAD' && !page)
          assert.match(String(reply.headers['content-type']), /application\/problem\+json/)
        if (page) assert.doesNotMatch(p, /^\/(v1|healthz)(\/|$)/)
      },
    ),
    { numRuns: 300 },
  )
})

test('while the server drains, a request still arriving is a 503 problem with Retry-After', async () => {
  t.deps.lifecycle.draining = true
  try {
    const reply = await client(t.app, token).get('/v1/projects')
    assertProblem(reply, 503, 'service_unavailable')
    assert.ok(Number(reply.headers['retry-after']) > 0)
    assertProblem(await client(t.app).get('/readyz'), 503, 'service_unavailable')
    // The process is alive until it exits.
    assert.equal((await client(t.app).get('/healthz')).status, 200)
  } finally {
    t.deps.lifecycle.draining = false
  }
})
