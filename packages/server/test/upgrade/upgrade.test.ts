import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import pg from 'pg'
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { matchSignIn } from '../../src/web/sign-in.ts'
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.ts'
import { serviceSignature } from '../../src/webhooks/webhook-signature.ts'
import { emptyPostgres } from '../harness/empty-postgres.ts'
import { type Receiver, startReceiver } from '../harness/receiver.ts'
import { client, startTestApp, TEST_SECRET, type TestApp } from '../harness/test-app.ts'
import { ENGINE, type TestDatabase } from '../harness/test-database.ts'

// Upgrades (docs/operations.md, "Upgrades"): the database the previous release left, with data
// its own code wrote (scripts/upgrade-fixture.ts made v0.1.0.sql from the tagged release), is
// migrated by this code, which then serves it: old keys, passwords, sealed webhook secrets and
// records all still work, and new writes go in beside them.

const RELEASE = 'v0.1.0'
const here = import.meta.dirname
const facts = JSON.parse(readFileSync(join(here, `${RELEASE}.json`), 'utf8'))
const dump = readFileSync(join(here, `${RELEASE}.sql`), 'utf8')
const migrationFiles = readdirSync(join(here, '../../src/db/migrations')).filter((f) =>
  f.endsWith('.ts'),
)

let database: TestDatabase
let cleanUp: () => Promise<void>
let applied: string[]
let t: TestApp
let receiver: Receiver
before(async () => {
  database = await releasedDatabase()
  applied = await migrateToLatest(database.db)
  t = await startTestApp({ database, env: { WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' } })
  receiver = await startReceiver()
})
after(async () => {
  await receiver?.close()
  await t?.close()
  await database?.close()
  await cleanUp?.()
})

// The release's database, as its own code left it, on the engine of this run.
async function releasedDatabase(): Promise<TestDatabase> {
  if (ENGINE === 'postgres') {
    const empty = await emptyPostgres()
    const loader = new pg.Client({ connectionString: empty.url })
    await loader.connect()
    await loader.query(dump)
    await loader.end()
    const handle = await openDatabase({ kind: 'postgres', url: empty.url })
    cleanUp = () => empty.close()
    return { ...handle, url: empty.url }
  }
  const dir = mkdtempSync(join(tmpdir(), 'wg-upgrade-'))
  const handle: DatabaseHandle = await openDatabase({ kind: 'embedded', dataDir: dir })
  await handle.pglite?.exec(dump)
  // The dump's session settings (an empty search_path among them) must not outlive it: the
  // embedded database has one session, which the app is about to use.
  await handle.pglite?.exec('reset all')
  cleanUp = async () => rmSync(dir, { recursive: true, force: true })
  return { ...handle, url: undefined }
}

test('the fixture is the tagged release’s, sealed with the tests’ service secret', () => {
  assert.equal(facts.release, RELEASE)
  assert.match(facts.commit, /^[0-9a-f]{40}$/)
  assert.equal(facts.secret, TEST_SECRET.toString('base64'))
})

test('every migration since the release is applied, once, and none before it again', async () => {
  assert.ok(applied.length > 0, 'the release is behind this code')
  const released = dump.match(/INSERT INTO public\.kysely_migration VALUES \('([^']+)'/g) ?? []
  assert.equal(released.length + applied.length, migrationFiles.length)
  const rows = await database.db
    .selectFrom('kysely_migration' as never)
    .select('name' as never)
    .execute()
  assert.equal(rows.length, migrationFiles.length)
  assert.deepEqual(await migrateToLatest(database.db), [], 'a second start applies nothing')
})

test('keys, records, search and passwords the release made still work', async () => {
  const alice = client(t.app, facts.api_key)
  const projects = await alice.get('/v1/projects')
  assert.equal(projects.status, 200, projects.body)
  assert.ok(projects.json.data.some((p: { id: string }) => p.id === facts.ids.open))
  const task = await alice.get(`/v1/resources/${facts.ids.task}`)
  assert.equal(task.status, 200, task.body)
  assert.equal(task.json.title, 'Written by the release before')
  const comment = await alice.get(`/v1/resources/${facts.ids.comment}`)
  assert.equal(comment.status, 200, comment.body)
  const found = await alice.post('/v1/search', { query: 'written by the release' })
  assert.equal(found.status, 200, found.body)
  assert.ok(
    found.json.results.some((hit: { id: string }) => hit.id === facts.ids.task),
    found.body,
  )
  const matches = await matchSignIn(t.deps.db, facts.email, facts.password, null)
  assert.equal(matches.length, 1, 'the password set before the upgrade signs in')
  assert.equal((await matchSignIn(t.deps.db, facts.email, 'another', null)).length, 0)
  assert.equal((await client(t.app, `${facts.api_key}x`).get('/v1/projects')).status, 401)
})

test('a write after the upgrade reaches the release’s webhook, signed with its sealed secret', async () => {
  await t.db.db
    .updateTable('webhook_endpoints')
    .set({ url: `${receiver.url}/after-upgrade` })
    .where('id', '=', facts.webhook.id)
    .execute()
  const made = await client(t.app, facts.api_key).post('/v1/tasks', {
    title: 'Written after the upgrade',
    project_id: facts.ids.open,
  })
  assert.equal(made.status, 201, made.body)
  const dispatcher = new WebhookDispatcher(t.deps, { random: () => 0.5 })
  await dispatcher.drain()
  await dispatcher.stop(0)
  const delivered = receiver.received.find((r) => r.url.endsWith('/after-upgrade'))
  assert.ok(delivered, 'delivered')
  assert.equal(delivered.json.data.object.id, made.json.id)
  assert.equal(
    delivered.headers['x-service-signature'],
    serviceSignature(facts.webhook.secret, delivered.raw.toString('utf8')),
  )
  const activity = await client(t.app, facts.api_key).get('/v1/activity?limit=100')
  assert.equal(activity.status, 200, activity.body)
  const subjects = activity.json.data.map((a: { subject_id: string }) => a.subject_id)
  assert.ok(subjects.includes(made.json.id) && subjects.includes(facts.ids.task), activity.body)
})
