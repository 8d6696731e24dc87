import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import { importBundle } from '../../src/bundle/import-bundle.ts'
import { isIdOf } from '../../src/lib/ids.ts'
import { PASSWORD_COST } from '../../src/lib/password.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { openTestDatabase, type TestDatabase } from '../harness/test-database.ts'

let db: TestDatabase
before(async () => {
  db = await openTestDatabase()
})
after(() => db.close())

const TABLES = [
  'workspaces',
  'people',
  'teams',
  'team_members',
  'integrations',
  'projects',
  'project_members',
  'canvases',
  'canvas_shares',
  'canvas_links',
  'tasks',
  'objectives',
  'key_results',
  'checkins',
  'comments',
  'activity',
  'resource_index',
  'tokens',
  'oauth_clients',
] as const

async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const table of TABLES) {
    const row = await sql<{
      n: number
    }>`select count(*)::int as n from ${sql.table(table)}`.execute(db.db)
    counts[table] = row.rows[0]?.n ?? -1
  }
  return counts
}

test('a bundle imports into one new workspace with an id per key and every row', async () => {
  const result = await importOk(db.db, smallBundle())
  const bundle = smallBundle()
  assert.ok(isIdOf('workspace', result.workspace_id))
  assert.ok(isIdOf('person', result.ids.alice as string))
  assert.ok(isIdOf('key_result', result.ids.kr1 as string))
  const ws = result.workspace_id
  const count = async (table: (typeof TABLES)[number]) =>
    (
      await sql<{
        n: number
      }>`select count(*)::int as n from ${sql.table(table)} where workspace_id = ${ws}`.execute(
        db.db,
      )
    ).rows[0]?.n
  assert.equal(await count('people'), bundle.people.length)
  assert.equal(await count('tasks'), bundle.tasks?.length)
  assert.equal(await count('resource_index'), 2 + 1 + 2 + 1 + 1) // projects, canvas, tasks, okr, comment
  const verbs = await db.db
    .selectFrom('activity')
    .select('verb')
    .where('workspace_id', '=', ws)
    .execute()
  assert.deepEqual(verbs.map((v) => v.verb).sort(), [
    'canvas.created',
    'comment.created',
    'okr.created',
    'project.created',
    'project.created',
    'task.created',
    'task.created',
  ])
})

test('secrets are printed once and stored only as hashes', async () => {
  const result = await importOk(
    db.db,
    smallBundle({
      oauth_clients: [
        { key: 'app', name: 'App', redirect_uris: ['https://app.test/cb'], public: false },
      ],
    }),
  )
  const token = result.api_keys['alice-key']?.token as string
  assert.match(token, /^wg_key_/)
  assert.match(result.workspace_tokens['bot-token']?.token as string, /^wg_wst_/)
  assert.match(result.oauth_clients.app?.client_secret as string, /^wg_cs_/)
  const dump = JSON.stringify(
    await db.db
      .selectFrom('tokens')
      .selectAll()
      .where('workspace_id', '=', result.workspace_id)
      .execute(),
  )
  assert.ok(!dump.includes(token.slice(7, 30)), 'no plaintext token at rest')
  const rows = await db.db
    .selectFrom('tokens')
    .select(['last4', 'secret_hash'])
    .where('id', '=', result.api_keys['alice-key']?.id as string)
    .execute()
  assert.equal(rows[0]?.last4, token.slice(-4))
})

test('passwords are stored as scrypt hashes at the service’s work factor', async () => {
  const bundle = smallBundle()
  bundle.people[0] = {
    ...bundle.people[0],
    key: 'olive',
    name: 'Olive',
    email: 'olive2@example.test',
    role: 'owner',
    password: 'correct horse battery',
  }
  // The service's own cost, not the one tests import at.
  const result = await importOk(db.db, bundle, { passwordCost: PASSWORD_COST })
  const row = await db.db
    .selectFrom('people')
    .select('password_hash')
    .where('id', '=', result.ids.olive as string)
    .executeTakeFirstOrThrow()
  assert.match(row.password_hash ?? '', /^scrypt\$131072\$8\$1\$/)
  assert.ok(!(row.password_hash ?? '').includes('correct horse'))
})

test('two imports make two separate workspaces with different ids', async () => {
  const a = await importOk(db.db, smallBundle())
  const b = await importOk(db.db, smallBundle())
  assert.notEqual(a.workspace_id, b.workspace_id)
  assert.notEqual(a.ids.alice, b.ids.alice)
})

test('an invalid bundle is rejected whole and the database is unchanged', async () => {
  await importOk(db.db, smallBundle())
  const before = await rowCounts()
  const bundle = structuredClone(smallBundle()) as ReturnType<typeof smallBundle>
  // Everything is fine except one reference at the very end of the write order.
  bundle.comments?.push({
    key: 'late',
    on: 't-open',
    author: 'ghost',
    body: 'x',
    at: '2026-11-20T10:00:00Z',
  })
  const outcome = await importBundle(db.db, bundle)
  assert.equal(outcome.ok, false)
  if (!outcome.ok)
    assert.deepEqual(
      outcome.problems.map((p) => p.path),
      ['/comments/1/author'],
    )
  assert.deepEqual(await rowCounts(), before)
})

test('a failure while writing rolls the whole import back', async () => {
  const before = await rowCounts()
  // An error after some rows are written (thrown here from the progress callback) must undo them.
  const bundle = smallBundle()
  const outcome = await importBundle(db.db, bundle, {
    onProgress: (done) => {
      if (done > 10) throw new Error('injected failure after some rows were written')
    },
  }).catch((error: Error) => error)
  assert.ok(outcome instanceof Error)
  assert.deepEqual(await rowCounts(), before)
})

test('progress is reported up to the total', async () => {
  const seen: [number, number][] = []
  await importOk(db.db, smallBundle())
  const outcome = await importBundle(db.db, smallBundle(), {
    onProgress: (done, total) => seen.push([done, total]),
  })
  assert.ok(outcome.ok)
  const last = seen.at(-1)
  assert.ok(last && last[0] === last[1] && last[1] > 20)
})
