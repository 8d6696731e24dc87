import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import pg from 'pg'
import { Webhook } from 'standardwebhooks'
import { DEMO_PASSWORD } from '../../src/bundle/demo/demo-bundle.ts'
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.ts'
import { freePort, runCaptured, startCli } from '../harness/cli.ts'
import { type EmptyPostgres, emptyPostgres } from '../harness/empty-postgres.ts'
import { folderDigest } from '../harness/folder-digest.ts'
import { signInOverHttp } from '../harness/http-sign-in.ts'
import { type Receiver, startReceiver } from '../harness/receiver.ts'
import { type ServerCaller, serverCaller } from '../harness/server-caller.ts'
import { tableSnapshot } from '../harness/table-snapshot.ts'
import { TEST_SECRET } from '../harness/test-app.ts'
import { ENGINE } from '../harness/test-database.ts'

/*
 * `workgraph move` as an operator runs it (docs/operations.md, "Moving to PostgreSQL"): the demo
 * workspace, imported into a data folder and written to by a server, is moved into an empty
 * PostgreSQL database; the move verifies what it copied, the folder stays byte for byte as it was,
 * and a server on PostgreSQL then answers as the embedded one did, to the same keys and passwords,
 * signing webhooks with the same secrets. A target that is not empty is refused, and a copy that
 * does not verify (a trigger on the target changes what is written) is not committed. The move
 * needs both engines at once, so it runs in the PostgreSQL suite.
 */

const skip =
  ENGINE !== 'postgres' &&
  'it needs PostgreSQL beside the embedded database: the PostgreSQL suite runs it'
const env = {
  WORKGRAPH_SECRET: TEST_SECRET.toString('base64'),
  EMBEDDED_FSYNC: 'false',
  WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true',
}

let dir: string
let data: string
let receiver: Receiver
const databases: EmptyPostgres[] = []
// What the first test makes and the others use.
let keys: string[] = []
let moved: EmptyPostgres

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'workgraph-move-'))
  data = join(dir, 'data')
  receiver = await startReceiver()
})
after(async () => {
  await receiver.close()
  for (const database of databases) await database.close()
  rmSync(dir, { recursive: true, force: true })
})

test('move copies the embedded database into an empty PostgreSQL database, verified; a server there answers as the embedded one did, and the folder is unchanged', {
  skip,
}, async () => {
  const bundle = join(dir, 'demo.json')
  assert.equal((await runCaptured(['demo', '--out', bundle])).code, 0)
  const imported = await run(['import', bundle, '--json', '--data', data])
  assert.equal(imported.code, 0, imported.output)
  const result = JSON.parse(imported.output.slice(imported.output.indexOf('{')))
  keys = [...Object.values(result.api_keys), ...Object.values(result.workspace_tokens)].map(
    (secret) => (secret as { token: string }).token,
  )
  const owner = result.api_keys['ada-key'].token as string
  const emails = (
    JSON.parse(readFileSync(bundle, 'utf8')).people as { email: string; password?: string }[]
  )
    .filter((person) => person.password)
    .map((person) => person.email)

  // The embedded server: a webhook endpoint (its secret sealed), and writes.
  const embedded = await serve(['--data', data])
  let hook: { id: string; secret: string }
  try {
    const api = serverCaller(embedded.base, owner)
    const created = await api.post('/v1/webhooks', { url: receiver.url, events: ['okr.checkin'] })
    assert.equal(created.status, 201, JSON.stringify(created.json))
    hook = { id: created.json.id, secret: created.json.secret }
    for (const title of ['Move the launch checklist', 'Pricing review after the move'])
      assert.equal((await api.post('/v1/tasks', { title })).status, 201)

    // While a server holds the folder, the move is refused: what it wrote later would be lost.
    moved = await emptyPostgres()
    databases.push(moved)
    const held = await run(['move', '--to', moved.url, '--data', data])
    assert.equal(held.code, 1, held.output)
    assert.match(
      held.output,
      /is in use by another Workgraph process \(pid \d+\)\. Stop it \(Ctrl-C where it runs\), then run move again/,
    )
    assert.equal(await rowsIn(moved.url), null, 'the target was not touched')
  } finally {
    await embedded.stop()
  }

  const digest = folderDigest(data)
  const move = await run(['move', '--to', moved.url, '--data', data, '--json'])
  assert.equal(move.code, 0, move.output)
  const report = JSON.parse(move.output)
  assert.equal(report.verified, true)
  assert.deepEqual(report.failures, [])
  for (const table of report.tables) {
    assert.equal(table.target_rows, table.source_rows, table.table)
    assert.equal(table.checksums_match, true, table.table)
  }
  const rows = (name: string) => report.tables.find((t: { table: string }) => t.table === name)
  assert.ok(rows('tasks').source_rows > 100)
  assert.ok(rows('activity').source_rows > 0)
  assert.equal(report.sequences[0].sequence, 'activity_written_seq')
  assert.equal(report.sequences[0].target, report.sequences[0].source)
  assert.ok(report.search_index.rows > 100)
  assert.deepEqual(
    {
      rebuilt: report.search_index.rebuiltSame,
      vocabulary: report.search_index.vocabularyComplete,
    },
    { rebuilt: true, vocabulary: true },
  )
  assert.equal(report.credentials.keys, keys.length)
  assert.equal(report.credentials.keysAlike, keys.length)
  assert.deepEqual(
    [report.credentials.passwords, report.credentials.passwordsAlike],
    [emails.length, emails.length],
  )
  assert.deepEqual(report.credentials.webhookSecrets, { sealed: 1, opened: 1 })
  assert.equal(folderDigest(data), digest, 'the data folder is byte for byte what it was')

  // Checked apart from the move's own checks: every row of every table, as JSON text.
  const [embeddedRows, postgresRows] = [
    await rowsOf({ kind: 'embedded', dataDir: data, durable: false }),
    await rowsOf({ kind: 'postgres', url: moved.url, poolSize: 1 }),
  ]
  assert.deepEqual(postgresRows, embeddedRows)

  // A server on each database, side by side with one PUBLIC_URL, so that their answers can be
  // compared whole: records' URLs agree, and both are read on one UTC day (a task turns overdue
  // at midnight without a write).
  const shared = { PUBLIC_URL: 'http://workgraph.test' }
  const [onEmbedded, onPostgres] = await Promise.all([
    serve(['--data', data], shared),
    serve(['--database-url', moved.url], shared),
  ])
  try {
    let day: string
    let answers: [string[], string[]]
    do {
      day = new Date().toISOString().slice(0, 10)
      answers = [
        await observe(serverCaller(onEmbedded.base, owner)),
        await observe(serverCaller(onPostgres.base, owner)),
      ]
    } while (new Date().toISOString().slice(0, 10) !== day)
    for (const [i, request] of OBSERVED.entries())
      assert.equal(answers[1][i], answers[0][i], `${request}: PostgreSQL answers otherwise`)
    // Each key is taken as it was: read with, or refused for want of a scope, never unknown.
    const keyAnswers = await keyStatuses(onEmbedded.base)
    assert.deepEqual(await keyStatuses(onPostgres.base), keyAnswers)
    assert.ok(!keyAnswers.includes(401) && keyAnswers.includes(200))
    for (const email of emails)
      assert.equal(
        await signInOverHttp(onPostgres.base, email, DEMO_PASSWORD, shared.PUBLIC_URL),
        303,
        email,
      )
    const api = serverCaller(onPostgres.base, owner)
    const seen = receiver.received.length
    assert.equal((await api.post(`/v1/webhooks/${hook.id}/test`, {})).status, 202)
    await until(() => receiver.received.length > seen)
    const delivery = receiver.received[seen]
    assert.ok(delivery)
    assert.doesNotThrow(() =>
      new Webhook(hook.secret).verify(delivery.raw.toString('utf8'), {
        'webhook-id': String(delivery.headers['webhook-id']),
        'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
        'webhook-signature': String(delivery.headers['webhook-signature']),
      }),
    )
  } finally {
    await Promise.all([onEmbedded.stop(), onPostgres.stop()])
  }
})

test('a target with rows is refused and left as it was; a copy that does not verify is not committed', {
  skip,
}, async () => {
  const digest = folderDigest(data)
  const unchanged = await rowsOf({ kind: 'postgres', url: moved.url, poolSize: 1 })
  const again = await run(['move', '--to', moved.url, '--data', data])
  assert.equal(again.code, 1, again.output)
  assert.match(
    again.output,
    /^PostgreSQL at .+ is not empty \(rows in activity, audit_log, .+\), so nothing was moved: move into a new database \(createdb\), or one that holds only the schema `workgraph migrate` made\.$/m,
  )
  assert.deepEqual(await rowsOf({ kind: 'postgres', url: moved.url, poolSize: 1 }), unchanged)

  // A database migrated beforehand is a target too; here a trigger alters every task's title on
  // its way in, as a broken extension or a hand's change would.
  const tampered = await emptyPostgres()
  databases.push(tampered)
  assert.equal((await run(['migrate', '--database-url', tampered.url])).code, 0)
  const client = new pg.Client({ connectionString: tampered.url })
  await client.connect()
  try {
    await client.query(`create function tamper() returns trigger language plpgsql as $$
      begin new.title := new.title || ' (altered)'; return new; end $$;
      create trigger tamper before insert on tasks for each row execute function tamper()`)
  } finally {
    await client.end()
  }
  const failed = await run(['move', '--to', tampered.url, '--data', data, '--json'])
  assert.equal(failed.code, 1, failed.output)
  const report = JSON.parse(failed.output)
  assert.equal(report.verified, false)
  assert.deepEqual(report.failures, [
    'tasks: the same number of rows, but their contents differ',
    'the search index compiled again from the moved rows differs from the moved index',
    'the search vocabulary lacked words of the moved titles',
  ])
  assert.equal(await rowsIn(tampered.url), 0, 'nothing was committed')
  const text = await run(['move', '--to', tampered.url, '--data', data])
  assert.equal(text.code, 1)
  assert.match(
    text.output,
    /^ {2}tables {5}FAILED {2}\d+ of \d+ with the same row count and checksum/m,
  )
  assert.match(
    text.output,
    /^Nothing was committed: PostgreSQL holds the schema and no rows\. The embedded folder is unchanged\.$/m,
  )

  // A target that refuses a row outright (a constraint added by hand) ends the copy: one line,
  // and again nothing committed.
  const refusing = await emptyPostgres()
  databases.push(refusing)
  assert.equal((await run(['migrate', '--database-url', refusing.url])).code, 0)
  const admin = new pg.Client({ connectionString: refusing.url })
  await admin.connect()
  await admin.query('alter table tasks add constraint no_tasks check (false) not valid')
  await admin.end()
  const refused = await run(['move', '--to', refusing.url, '--data', data])
  assert.equal(refused.code, 1, refused.output)
  assert.match(
    refused.output,
    /^The copy failed, so nothing was committed to PostgreSQL at .+: new row for relation "tasks" violates check constraint "no_tasks"$/m,
  )
  assert.doesNotMatch(refused.output, /\bat .+\.ts:\d+/)
  assert.equal(await rowsIn(refusing.url), 0)
  assert.equal(folderDigest(data), digest)
})

test('a wrong --to is a usage error (2) or a failure (1) that names it; neither changes the folder', {
  skip,
}, async () => {
  const digest = folderDigest(data)
  for (const [args, code, message] of [
    [['move', '--data', data], 2, /^Give --to URL: the PostgreSQL database to move to\.$/m],
    [
      ['move', '--to', 'mysql://db/workgraph', '--data', data],
      2,
      /^--to must be a PostgreSQL URL naming a database/m,
    ],
    [
      ['move', '--to', 'postgres://127.0.0.1:5432', '--data', data],
      2,
      /^--to must be a PostgreSQL URL naming a database/m,
    ],
    [
      ['move', '--to', 'postgres://postgres@127.0.0.1:1/nowhere', '--data', data],
      1,
      /^Cannot use PostgreSQL at 127\.0\.0\.1:1\/nowhere: .*ECONNREFUSED.*\. Nothing was changed\.$/m,
    ],
    [
      ['move', '--to', moved.url, '--data', join(dir, 'empty')],
      1,
      /^There is no embedded database in .+empty, so there is nothing to move\.$/m,
    ],
  ] as const) {
    const result = await run([...args])
    assert.equal(result.code, code, result.output)
    assert.match(result.output, message)
  }
  assert.equal(folderDigest(data), digest)
})

// Runs a command to its end as a real process: its exit status and all it printed.
async function run(args: string[]): Promise<{ code: number | string; output: string }> {
  const command = startCli(args, env)
  const code = await command.exit(240_000)
  return { code, output: command.output() }
}

async function serve(target: string[], extra: Record<string, string> = {}) {
  const port = await freePort()
  const server = startCli(['serve', '--port', String(port), ...target], { ...env, ...extra })
  await server.waitFor(/Workgraph is listening on/)
  return {
    base: `http://127.0.0.1:${port}`,
    async stop() {
      server.child.kill('SIGTERM')
      assert.equal(await server.exit(60_000), 0, server.output())
    },
  }
}

// The status each key gets for the workspace, in the keys' order.
async function keyStatuses(base: string): Promise<number[]> {
  const statuses: number[] = []
  for (const key of keys) statuses.push((await serverCaller(base, key).get('/v1/workspace')).status)
  return statuses
}

const LISTS = [
  '/v1/workspace',
  '/v1/projects?limit=100',
  '/v1/tasks?limit=100',
  '/v1/people?limit=100',
]
const QUESTIONS = ['launch checklist', 'pricing', 'onboardng']
// The requests `observe` makes, named for a failure's message.
const OBSERVED = [...LISTS, ...QUESTIONS.map((query) => `search "${query}"`)]

// What a server answers that depends on every part moved: lists, and searches (the ids found, in
// order), one string per request of OBSERVED.
async function observe(api: ServerCaller): Promise<string[]> {
  const answers: string[] = []
  for (const path of LISTS) {
    const reply = await api.get(path)
    assert.equal(reply.status, 200, path)
    answers.push(JSON.stringify(reply.json.data ?? reply.json))
  }
  for (const query of QUESTIONS) {
    const reply = await api.post('/v1/search', { query })
    assert.equal(reply.status, 200, query)
    answers.push(
      JSON.stringify(reply.json)
        .match(/"id":"[^"]+"/g)
        ?.join() ?? '',
    )
  }
  return answers
}

// Every row of every table but the migrator's own, times read in UTC.
async function rowsOf(target: Parameters<typeof openDatabase>[0]): Promise<Record<string, string>> {
  const handle: DatabaseHandle = await openDatabase(target)
  try {
    await sql`set timezone = 'UTC'`.execute(handle.db)
    const rows = await tableSnapshot(handle.db)
    delete rows.kysely_migration
    delete rows.kysely_migration_lock
    return rows
  } finally {
    await handle.close()
  }
}

// The workspaces of a PostgreSQL database, or null when it has no schema at all.
async function rowsIn(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const found = await client.query(`select to_regclass('public.workspaces') is not null as made`)
    if (!found.rows[0].made) return null
    return Number((await client.query('select count(*) from workspaces')).rows[0].count)
  } finally {
    await client.end()
  }
}

async function until(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await sleep(50)
  }
}
