import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import { newSecret, SECRET_PREFIX } from '../../src/access/secrets.ts'
import { DEMO_PASSWORD } from '../../src/bundle/demo/demo-bundle.ts'
import { prepareDemo } from '../../src/cli/demo-access.ts'
import { hashPassword } from '../../src/lib/password.ts'
import { setEmailPassword } from '../../src/web/email-passwords.ts'
import { client, startTestApp, TEST_SECRET, type TestApp } from '../harness/test-app.ts'

// The demo's API key (docs/bundles.md, `serve --demo`): the same at every start of the same data
// folder, so webhooks made with it outlive a restart; a revoked one stays revoked, and the start
// that makes the next one says what ended.

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

const NOW = new Date('2026-11-22T12:00:00.000Z')
const start = (secret = TEST_SECRET, now = NOW) => prepareDemo(t.db.db, now, secret)
const projects = (key: string) => client(t.app, key).get('/v1/projects')

test('every start prints the same demo key, and the key of an earlier start keeps working', async () => {
  const first = await start()
  assert.equal(first.imported, true)
  assert.deepEqual(first.keyReplaced, [])
  const webhook = await client(t.app, first.apiKey).post('/v1/webhooks', {
    url: 'https://example.test/hook',
    events: ['task.created'],
  })
  assert.equal(webhook.status, 201, webhook.body)
  const second = await start(TEST_SECRET, new Date('2026-11-23T08:00:00.000Z'))
  assert.equal(second.imported, false)
  assert.equal(second.apiKey, first.apiKey)
  assert.deepEqual(second.keyReplaced, [])
  assert.equal((await projects(first.apiKey)).status, 200)
  // What was made with it is still there and still the key's.
  const listed = await client(t.app, second.apiKey).get('/v1/webhooks')
  assert.equal(listed.status, 200, listed.body)
  assert.ok(listed.json.data.some((endpoint: { id: string }) => endpoint.id === webhook.json.id))
  // Only its hash is stored, as for any key: no row holds the key itself.
  const plain = await sql<{ n: number }>`
    select count(*)::int as n from tokens t where t::text like ${`%${first.apiKey}%`}`.execute(
    t.db.db,
  )
  assert.equal(plain.rows[0]?.n, 0)
})

test('the banner’s password is the demo one only while the owner still has it', async () => {
  const before = await start()
  assert.equal(before.password, DEMO_PASSWORD)
  await t.db.db.transaction().execute(async (trx) =>
    setEmailPassword(trx, {
      email: before.personEmail,
      hash: await hashPassword('a passphrase of their own'),
      now: NOW,
    }),
  )
  assert.equal((await start()).password, null)
})

test('a revoked demo key stays revoked; the next start makes another and says so', async () => {
  const current = await start()
  const keys = await client(t.app, current.apiKey).get('/v1/tokens')
  const demo = keys.json.data.find(
    (key: { name: string }) => key.name === 'Demo key (serve --demo)',
  )
  const revoked = await client(t.app, current.apiKey).post(`/v1/tokens/${demo.id}/revoke`)
  assert.equal(revoked.status, 200, revoked.body)
  const next = await start()
  assert.notEqual(next.apiKey, current.apiKey)
  assert.equal((await projects(current.apiKey)).status, 401)
  assert.equal((await projects(next.apiKey)).status, 200)
  assert.equal(next.keyReplaced.length, 1)
  assert.equal(next.keyReplaced[0]?.last4, current.apiKey.slice(-4))
  assert.equal(next.keyReplaced[0]?.byThisStart, false)
  // And the one after that is the same again.
  assert.equal((await start()).apiKey, next.apiKey)
})

test('a demo key it cannot print again (another secret, an earlier version) is revoked, and said', async () => {
  const current = await start()
  const other = await start(Buffer.alloc(32, 3))
  assert.notEqual(other.apiKey, current.apiKey)
  assert.equal(other.keyReplaced[0]?.byThisStart, true)
  assert.equal(other.keyReplaced[0]?.last4, current.apiKey.slice(-4))
  assert.equal((await projects(current.apiKey)).status, 401)
  assert.equal((await projects(other.apiKey)).status, 200)
  // A well-formed key that was never the demo's is still just an unknown key.
  assert.equal((await projects(newSecret(SECRET_PREFIX.apiKey))).status, 401)
})
