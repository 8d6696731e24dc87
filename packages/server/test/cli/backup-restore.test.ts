import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { Webhook } from 'standardwebhooks'
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.ts'
import { lockDataDir } from '../../src/db/embedded-lock.ts'
import { type CliData, cliData, freePort, runCaptured, startCli } from '../harness/cli.ts'
import { emptyPostgres } from '../harness/empty-postgres.ts'
import { folderDigest } from '../harness/folder-digest.ts'
import { signInOverHttp } from '../harness/http-sign-in.ts'
import { type Received, type Receiver, startReceiver } from '../harness/receiver.ts'
import { type ServerCaller, serverCaller } from '../harness/server-caller.ts'
import { tableSnapshot } from '../harness/table-snapshot.ts'
import { TEST_SECRET } from '../harness/test-app.ts'
import { ENGINE } from '../harness/test-database.ts'

/*
 * `workgraph backup` and `restore` as an operator runs them (docs/operations.md, "Backups and
 * restore"), each command a real process: a backup taken while `serve` runs and is written to,
 * restored into an empty data folder or database, on which a server then serves everything
 * acknowledged before the backup, with the same API key, password and webhook signing secret
 * when it has the same server secret, and the key and password only with another one.
 */

const EMAIL = 'ada@acme.test'
const PASSWORD = 'a long passphrase'
const env = {
  WORKGRAPH_SECRET: TEST_SECRET.toString('base64'),
  EMBEDDED_FSYNC: 'false',
  WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true',
  // The writer below writes as fast as the server answers.
  RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
}

let cli: CliData
let receiver: Receiver
const databases: { close(): Promise<void> }[] = []
// What the first test makes and the later ones use.
let apiKey = ''
let hook = { id: '', secret: '' }
let restored: string[] = []

before(async () => {
  cli = await cliData('workgraph-backup-')
  receiver = await startReceiver()
})
after(async () => {
  await receiver.close()
  for (const database of databases) await database.close()
  await cli.close()
})

test('a backup taken while serve runs and is written to restores into an empty target, whose server serves what was acknowledged before it', async () => {
  const made = await runCaptured(
    ['init', '--workspace-name', 'Acme', '--name', 'Ada', '--email', EMAIL, ...cli.target],
    env,
    `${PASSWORD}\n`,
  )
  assert.equal(made.code, 0, made.stderr)
  apiKey = /(wg_key_\w+)/.exec(made.stdout)?.[1] as string
  const running = await serve(cli.target)
  const api = serverCaller(running.base, apiKey)
  const created = await api.post('/v1/webhooks', { url: receiver.url, events: ['okr.checkin'] })
  assert.equal(created.status, 201, JSON.stringify(created.json))
  hook = { id: created.json.id, secret: created.json.secret }

  // Tasks are written one after another before, while and after the backup runs.
  const acknowledged: string[] = []
  let attempted = 0
  let writing = true
  const writer = (async () => {
    while (writing) {
      const title = `written ${attempted++}`
      const reply = await api.post('/v1/tasks', { title })
      if (reply.status === 201) acknowledged.push(title)
      // A write that waited too long for the database while the snapshot was read.
      else assert.equal(reply.status, 503, JSON.stringify(reply.json))
    }
  })()
  try {
    await until(() => acknowledged.length >= 5)
    const acknowledgedFirst = [...acknowledged]
    const file = join(cli.dir, 'while-serving.backup')
    const backup = await run(['backup', '--out', file, ...cli.target])
    assert.equal(backup.code, 0, backup.output)
    assert.match(
      backup.output,
      ENGINE === 'pglite'
        ? /\(\d+\.\d MB, a snapshot taken by the server that holds the folder\)/
        : /\(\d+\.\d MB, pg_dump, custom format\)/,
    )
    assert.match(backup.output, /The backup holds no server secret: keep /)
    const afterBackup = acknowledged.length
    await until(() => acknowledged.length >= afterBackup + 5)
    writing = false
    await writer
    assert.deepEqual(
      readdirSync(cli.dir).filter((name) => name.endsWith('.partial')),
      [],
      'no temporary file is left',
    )
    await running.stop()

    restored = await emptyTarget('restored')
    const restore = await run(['restore', file, ...restored])
    assert.equal(restore.code, 0, restore.output)
    assert.match(restore.output, /^Restored .+while-serving\.backup into the /m)

    const handle = await openTarget(restored)
    try {
      const titles = (await handle.db.selectFrom('tasks').select('title').execute()).map(
        (row) => row.title,
      )
      for (const title of acknowledgedFirst)
        assert.ok(titles.includes(title), `${title} was restored`)
      assert.ok(titles.length < acknowledged.length, 'writes after the backup are not in it')
      for (const title of titles)
        assert.ok(Number(/^written (\d+)$/.exec(title)?.[1]) < attempted, `${title} was written`)
      // Each task is whole: its index row and its activity entry are in the same snapshot.
      const indexed = await handle.db
        .selectFrom('resource_index')
        .select(({ fn }) => fn.countAll<number>().as('n'))
        .where('type', '=', 'task')
        .executeTakeFirstOrThrow()
      const recorded = await handle.db
        .selectFrom('activity')
        .select(({ fn }) => fn.countAll<number>().as('n'))
        .where('verb', '=', 'task.created')
        .executeTakeFirstOrThrow()
      assert.equal(indexed.n, titles.length)
      assert.equal(recorded.n, titles.length)
    } finally {
      await handle.close()
    }
  } finally {
    writing = false
    await writer.catch(() => {})
    running.server.child.kill('SIGKILL')
  }

  const again = await serve(restored)
  try {
    const restoredApi = serverCaller(again.base, apiKey)
    assert.equal((await restoredApi.get('/v1/workspace')).status, 200)
    assert.equal(await signInOverHttp(again.base, EMAIL, PASSWORD), 303)
    assert.equal(await signInOverHttp(again.base, EMAIL, 'not the passphrase'), 401)
    // The endpoint's signing secret, sealed with the server secret, opens: a test event arrives
    // signed with the secret its owner was given before the backup.
    const delivery = await testEvent(restoredApi, hook.id)
    assert.doesNotThrow(() => verify(delivery, hook.secret))
  } finally {
    await again.stop()
  }
})

test('with another server secret a restored server takes the same keys and passwords; webhook signing secrets open again once rotated', async () => {
  const other = Buffer.alloc(32, 9).toString('base64')
  const again = await serve(restored, { WORKGRAPH_SECRET: other })
  try {
    const api = serverCaller(again.base, apiKey)
    // Keys and passwords are stored as hashes, which no secret is part of.
    assert.equal((await api.get('/v1/workspace')).status, 200)
    assert.equal(await signInOverHttp(again.base, EMAIL, PASSWORD), 303)
    // The sealed signing secret does not open with another secret: nothing is sent.
    const seen = receiver.received.length
    const sent = await api.post(`/v1/webhooks/${hook.id}/test`, {})
    assert.equal(sent.status, 202)
    await sleep(3_000)
    assert.equal(receiver.received.length, seen, 'nothing was signed with a secret it cannot open')
    // A rotation seals a new secret with this server's: deliveries are signed again.
    const rotated = await api.post(`/v1/webhooks/${hook.id}/rotate-secret`, {
      grace_period_seconds: 0,
    })
    assert.equal(rotated.status, 200, JSON.stringify(rotated.json))
    const delivery = await testEvent(api, hook.id)
    assert.doesNotThrow(() => verify(delivery, rotated.json.secret))
    assert.throws(() => verify(delivery, hook.secret))
  } finally {
    await again.stop()
  }
})

test('a backup of a database no server holds restores to exactly its rows; a restore into a target that has a database is refused and changes nothing', async () => {
  const file = join(cli.dir, 'idle.backup')
  const backup = await run(['backup', '--out', file, ...cli.target])
  assert.equal(backup.code, 0, backup.output)
  if (ENGINE === 'pglite') assert.match(backup.output, /, a snapshot of the folder\)/)
  const target = await emptyTarget('exact')
  const restore = await run(['restore', file, ...target])
  assert.equal(restore.code, 0, restore.output)
  const [original, copy] = [await snapshotOf(cli.target), await snapshotOf(target)]
  assert.ok((copy.tasks?.length ?? 0) > 0)
  assert.deepEqual(copy, original)

  for (const into of [target, cli.target]) {
    const digest = into[0] === '--data' ? folderDigest(into[1] as string) : undefined
    const refused = await run(['restore', file, ...into])
    assert.equal(refused.code, 1, refused.output)
    assert.match(
      refused.output,
      ENGINE === 'pglite'
        ? /holds a database already, so nothing was restored: restore into a folder without one/
        : /is not empty \(it has \d+ tables, views or sequences, .*\), so nothing was restored/,
    )
    if (digest) assert.equal(folderDigest(into[1] as string), digest, 'the folder is unchanged')
  }
  assert.deepEqual(await snapshotOf(target), copy)
})

test('a folder held by a process that is not a server is not backed up: the message says to wait or stop it', {
  skip: ENGINE !== 'pglite' && 'the embedded database: its suite runs it',
}, async () => {
  const dataDir = cli.target[1] as string
  const lock = await lockDataDir(dataDir)
  const file = join(cli.dir, 'held.backup')
  try {
    const refused = await run(['backup', '--out', file, ...cli.target])
    assert.equal(refused.code, 1, refused.output)
    assert.match(
      refused.output,
      /is in use by another Workgraph process \(pid \d+\)\. It does not hand out snapshots: only `workgraph serve` does/,
    )
    assert.match(refused.output, /Wait for it to end, or stop it, then run backup again\./)
    assert.deepEqual(
      readdirSync(cli.dir).filter((name) => name.startsWith('held') || name.endsWith('.partial')),
      [],
    )
  } finally {
    await lock.release()
  }
})

// A target with no database: a new data folder, or a new empty PostgreSQL database.
async function emptyTarget(name: string): Promise<string[]> {
  if (ENGINE === 'pglite') return ['--data', join(cli.dir, name)]
  const database = await emptyPostgres()
  databases.push(database)
  return ['--database-url', database.url]
}

function openTarget(target: string[]): Promise<DatabaseHandle> {
  const [flag, where] = target as [string, string]
  return flag === '--data'
    ? openDatabase({ kind: 'embedded', dataDir: where, durable: false })
    : openDatabase({ kind: 'postgres', url: where })
}

async function snapshotOf(target: string[]): Promise<Record<string, string>> {
  const handle = await openTarget(target)
  try {
    return await tableSnapshot(handle.db)
  } finally {
    await handle.close()
  }
}

// Runs a command to its end as a real process: its exit status and all it printed.
async function run(args: string[]): Promise<{ code: number | string; output: string }> {
  const command = startCli(args, env)
  const code = await command.exit(180_000)
  return { code, output: command.output() }
}

async function serve(target: string[], extra: Record<string, string> = {}) {
  const port = await freePort()
  const server = startCli(['serve', '--port', String(port), ...target], { ...env, ...extra })
  await server.waitFor(/Workgraph is listening on/)
  return {
    server,
    base: `http://127.0.0.1:${port}`,
    async stop() {
      server.child.kill('SIGTERM')
      assert.equal(await server.exit(60_000), 0, server.output())
    },
  }
}

// Sends an endpoint's test event and waits for the receiver to get it.
async function testEvent(api: ServerCaller, endpointId: string): Promise<Received> {
  const seen = receiver.received.length
  const sent = await api.post(`/v1/webhooks/${endpointId}/test`, {})
  assert.equal(sent.status, 202, JSON.stringify(sent.json))
  await until(() => receiver.received.slice(seen).some((got) => got.json?.type === 'webhook.test'))
  return receiver.received.slice(seen).find((got) => got.json?.type === 'webhook.test') as Received
}

function verify(delivery: Received, secret: string): void {
  new Webhook(secret).verify(delivery.raw.toString('utf8'), {
    'webhook-id': String(delivery.headers['webhook-id']),
    'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
    'webhook-signature': String(delivery.headers['webhook-signature']),
  })
}

async function until(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await sleep(50)
  }
}
