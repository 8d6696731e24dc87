import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { PROBLEMS } from '../../src/api/problem-catalogue.ts'
import { SCOPES } from '../../src/catalogue/scopes.ts'
import { EVENT_TYPES } from '../../src/catalogue/verbs.ts'
import { generateOpenApiDocument } from '../../src/openapi-document.ts'
import { TEST_EVENT_TYPE } from '../../src/webhooks/test-event.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

const ROOT = join(import.meta.dirname, '../../../..')
const PUBLIC = new Set(['GET /healthz', 'GET /readyz'])
// Any token, whatever its scopes: a token may always ask whom it acts as.
const ANY_TOKEN = new Set(['GET /v1/me'])

test('the OpenAPI document is 3.1 and every operation declares its scopes', async () => {
  const reply = await client(t.app).get('/v1/openapi.json')
  assert.equal(reply.status, 200)
  const doc = reply.json
  assert.equal(doc.openapi, '3.1.0')
  const operations = Object.entries(
    doc.paths as Record<
      string,
      Record<
        string,
        {
          security?: { bearerAuth?: string[]; oauth2?: string[] }[]
          'x-required-scopes'?: string[]
          'x-scopes-by-id-kind'?: object
          'x-scopes-any-of'?: boolean
          tags?: string[]
        }
      >
    >,
  )
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        name: `${method.toUpperCase()} ${path}`,
        op,
      })),
    )
    .filter(({ name }) => !name.startsWith('HEAD '))
  assert.ok(operations.length >= 4)
  for (const { name, op } of operations) {
    if (PUBLIC.has(name) || op.tags?.includes('oauth')) {
      assert.deepEqual(op.security, [], `${name} is public`)
      continue
    }
    const scopes = op['x-required-scopes']
    if (ANY_TOKEN.has(name)) {
      assert.deepEqual(scopes, [], `${name} needs a token and no scope`)
      assert.deepEqual(op.security, [{ bearerAuth: [] }, { oauth2: [] }], name)
      continue
    }
    assert.ok(Array.isArray(scopes) && scopes.length > 0, `${name} declares scopes`)
    for (const scope of scopes)
      assert.ok(Object.hasOwn(SCOPES, scope), `${name}: ${scope} is in the catalogue`)
    if (op['x-scopes-by-id-kind'] || op['x-scopes-any-of']) {
      // Routes on any resource (per kind of id) and search (per type): one alternative per scope.
      // Each scope twice: as a bearer token's and as an OAuth token's.
      assert.deepEqual(
        op.security?.filter((a) => a.bearerAuth).map((alternative) => alternative.bearerAuth?.[0]),
        scopes,
        name,
      )
    } else {
      assert.deepEqual(op.security, [{ bearerAuth: scopes }, { oauth2: scopes }], name)
    }
  }
})

test('a route without declared scopes cannot even be registered', async () => {
  const other = await startTestApp()
  try {
    await assert.rejects(async () => {
      other.app.get('/v1/undeclared', async () => ({}))
      await other.app.ready()
    }, /must declare config.scopes or config.public/)
  } finally {
    await other.db.close()
  }
})

// biome-ignore lint/suspicious/noExplicitAny: the document is arbitrary JSON
type Json = any
const committed: Json = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8'))

// Every operation; `served` when a route schema generates it (not OAuth's, not a webhook's).
function operationsOf(document: Json): { name: string; op: Json; served: boolean }[] {
  return Object.entries<Json>({ ...document.paths, ...document.webhooks }).flatMap(([path, item]) =>
    Object.entries<Json>(item).map(([method, op]) => ({
      name: `${method} ${path}`,
      op,
      served: path.startsWith('/v1/') || path.endsWith('z'),
    })),
  )
}

test('docs/openapi.json is what the routes generate (run `npm run openapi` after a change)', async () => {
  assert.deepEqual(await generateOpenApiDocument(), committed)
})

test('the served document is the committed one', async () => {
  const served = (await client(t.app).get('/v1/openapi.json')).json
  assert.deepEqual({ ...served, servers: committed.servers }, committed)
})

test('every operation has a unique operationId, a declared tag and a summary', () => {
  const ids = new Set<string>()
  const tags = new Set(committed.tags.map((tag: Json) => tag.name))
  for (const { name, op } of operationsOf(committed)) {
    assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, name)
    assert.ok(!ids.has(op.operationId), `${name}: ${op.operationId} is used twice`)
    ids.add(op.operationId)
    assert.ok(op.summary, name)
    for (const tag of op.tags) assert.ok(tags.has(tag), `${name}: tag ${tag} is declared`)
  }
  assert.ok(ids.has('listTasks') && ids.has('createTask') && ids.has('search'))
})

test('every JSON body and answer is a named component; errors are problem+json', () => {
  for (const { name, op, served } of operationsOf(committed)) {
    const body = op.requestBody?.content?.['application/json']
    if (body) assert.match(body.schema.$ref, /^#\/components\/schemas\//, `${name} body`)
    for (const [status, response] of Object.entries<Json>(op.responses)) {
      const json = response.content?.['application/json']
      if (json) assert.match(json.schema.$ref, /^#\/components\/schemas\//, `${name} ${status}`)
      if (served && /^[45]/.test(status))
        assert.match(response.$ref, /^#\/components\/responses\//, `${name} ${status}`)
    }
  }
  const problem = committed.components.responses.Problem.content['application/problem+json']
  assert.equal(problem.schema.$ref, '#/components/schemas/Problem')
  assert.deepEqual(committed.components.schemas.Problem.properties.code.enum, Object.keys(PROBLEMS))
})

test('every API answer declares its headers; writes take an Idempotency-Key', () => {
  const createTask = committed.paths['/v1/tasks'].post
  assert.deepEqual(createTask.parameters.at(-1), { $ref: '#/components/parameters/IdempotencyKey' })
  assert.ok(createTask.responses['201'].headers['Idempotent-Replayed'])
  assert.ok(createTask.responses['201'].headers['RateLimit-Remaining'])
  assert.equal(createTask.responses['429'].$ref, '#/components/responses/RateLimited')
  assert.ok(committed.components.responses.RateLimited.headers['Retry-After'])
  for (const { name, op, served } of operationsOf(committed)) {
    if (!served) continue
    for (const [status, response] of Object.entries<Json>(op.responses))
      if (status.startsWith('2')) assert.ok(response.headers['X-Request-Id'], `${name} ${status}`)
  }
})

test('every write under /v1 takes dry_run and declares what a dry run answers, as a 200', () => {
  let writes = 0
  const schema = (ref: string) => committed.components.schemas[ref.split('/').at(-1) as string]
  for (const [path, item] of Object.entries<Json>(committed.paths)) {
    if (!path.startsWith('/v1/')) continue
    for (const method of ['post', 'patch', 'delete']) {
      const op = item[method]
      if (!op) continue
      writes++
      const flag = op.parameters.find((p: Json) => p.in === 'query' && p.name === 'dry_run')
      assert.equal(flag?.schema.type, 'boolean', `${method} ${path}`)
      const declared = schema(op.responses['200'].content['application/json'].schema.$ref)
      // A write answering 201 or 202 has the dry run's 200 of its own; one answering 200, either.
      const answer = declared.anyOf ? schema(declared.anyOf[1].$ref) : declared
      assert.deepEqual(answer.required, ['dry_run', 'result', 'activity', 'events'])
      assert.equal(answer.properties.dry_run.const, true, `${method} ${path}`)
      const statuses = Object.keys(op.responses).filter((status) => /^2/.test(status))
      assert.equal(statuses.length, declared.anyOf ? 1 : 2, `${method} ${path}: ${statuses}`)
    }
  }
  assert.ok(writes >= 18, `${writes} writes`)
})

test('the webhooks section has the payload of every event an endpoint can receive', () => {
  const events = Object.keys(committed.webhooks)
  assert.deepEqual(events, [...EVENT_TYPES, TEST_EVENT_TYPE])
  for (const event of events) {
    const ref = committed.webhooks[event].post.requestBody.content['application/json'].schema.$ref
    const schema = committed.components.schemas[ref.split('/').at(-1)]
    assert.equal(schema.properties.type.const, event)
  }
})

test('both security schemes are declared, OAuth with PKCE endpoints and every scope', () => {
  const { bearerAuth, oauth2 } = committed.components.securitySchemes
  assert.equal(bearerAuth.scheme, 'bearer')
  const flow = oauth2.flows.authorizationCode
  assert.match(flow.authorizationUrl, /\/oauth\/authorize$/)
  assert.match(flow.tokenUrl, /\/oauth\/token$/)
  assert.deepEqual(Object.keys(flow.scopes), Object.keys(SCOPES))
})

test('the OAuth and well-known endpoints the document describes answer as it says', async () => {
  const http = client(t.app)
  for (const path of [
    '/oauth/jwks',
    '/.well-known/oauth-authorization-server',
    '/.well-known/oauth-protected-resource',
  ]) {
    assert.ok(committed.paths[path].get, path)
    const reply = await http.get(path)
    assert.equal(reply.status, 200, path)
    assert.equal(typeof reply.json, 'object', path)
  }
  const form = { 'content-type': 'application/x-www-form-urlencoded' }
  for (const path of ['/oauth/token', '/oauth/revoke']) {
    assert.ok(committed.paths[path].post, path)
    const reply = await http.send({ method: 'POST', url: path, headers: form, payload: '' })
    assert.equal(reply.status, 400, path)
    assert.equal(typeof reply.json.error, 'string', path)
  }
  const authorize = await http.get('/oauth/authorize')
  assert.equal(authorize.status, 400)
})

test('@redocly/cli lints the document with no error and no warning', () => {
  const result = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'),
      'lint',
      'docs/openapi.json',
      '--format=json',
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  )
  assert.equal(result.status, 0, result.stderr)
  const report = JSON.parse(result.stdout)
  assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 }, result.stdout)
})
