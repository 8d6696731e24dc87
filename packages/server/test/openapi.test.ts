import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { SCOPES } from '../src/access/scopes.ts'
import { client, startTestApp, type TestApp } from './harness/test-app.ts'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

const PUBLIC = new Set(['GET /healthz', 'GET /readyz'])

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
          security?: { bearerAuth?: string[] }[]
          'x-required-scopes'?: string[]
          'x-scopes-by-id-kind'?: object
          'x-scopes-any-of'?: boolean
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
    if (PUBLIC.has(name)) {
      assert.deepEqual(op.security, [], `${name} is public`)
      continue
    }
    const scopes = op['x-required-scopes']
    assert.ok(Array.isArray(scopes) && scopes.length > 0, `${name} declares scopes`)
    for (const scope of scopes)
      assert.ok(Object.hasOwn(SCOPES, scope), `${name}: ${scope} is in the catalogue`)
    if (op['x-scopes-by-id-kind'] || op['x-scopes-any-of']) {
      // Routes on any resource (per kind of id) and search (per type): one alternative per scope.
      assert.deepEqual(
        op.security?.map((alternative) => alternative.bearerAuth?.[0]),
        scopes,
        name,
      )
    } else {
      assert.deepEqual(op.security?.[0]?.bearerAuth, scopes, name)
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
