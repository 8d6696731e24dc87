/**
 * Makes the database a released version left behind, for the upgrade test
 * (packages/server/test/upgrade/upgrade.test.ts): the release's own code, checked out from its
 * tag, imports a workspace, sets a password and makes writes through its own API (a task, a
 * comment, a webhook endpoint with its secret) on a scratch PostgreSQL database; the database is
 * then dumped as SQL, with what the test needs to sign in (keys, password, the service secret).
 *
 *   node scripts/upgrade-fixture.ts v0.1.0    writes packages/server/test/upgrade/v0.1.0.{sql,json}
 *
 * Run it once per release, when the release is tagged (docs/operations.md, "Upgrades"). It needs
 * git, the network for the release's `npm ci`, pg_dump, and the local PostgreSQL.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import pg from 'pg'

const release = process.argv[2] ?? 'v0.1.0'
const root = resolve(import.meta.dirname, '..')
const admin = 'postgres://postgres@127.0.0.1:5432/postgres'
const database = `wg_upgrade_${release.replace(/\W/g, '_')}`
const url = `postgres://postgres@127.0.0.1:5432/${database}`
// The tests' service secret (test/harness/test-app.ts): the test's app opens the sealed secrets.
const SECRET = Buffer.alloc(32, 7).toString('base64')
const PASSWORD = 'an upgrade keeps this password'
const PORT = 18_931

const work = mkdtempSync(join(tmpdir(), 'wg-release-'))
const tree = join(work, 'tree')
const run = (file: string, args: string[], options: { cwd?: string; input?: string } = {}) =>
  execFileSync(file, args, {
    cwd: options.cwd ?? tree,
    input: options.input,
    env: { ...process.env, WORKGRAPH_SECRET: SECRET, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  })

let server: ChildProcess | undefined
try {
  run('git', ['worktree', 'add', '--detach', tree, release], { cwd: root })
  const commit = run('git', ['rev-parse', 'HEAD']).trim()
  run('npm', ['ci', '--no-audit', '--no-fund'])
  const node = join(tree, 'node_modules', '.bin', 'node')
  const main = join(tree, 'packages/server/src/main.ts')

  // The release's own test workspace: people, teams, projects (one private), tasks, keys.
  const bundleFile = join(work, 'bundle.json')
  run(node, [
    '--input-type=module',
    '-e',
    `import { writeFileSync } from 'node:fs'
     import { webhookBundle } from './packages/server/test/harness/bundles.ts'
     writeFileSync(${JSON.stringify(bundleFile)}, JSON.stringify(webhookBundle()))`,
  ])

  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  await client.query(`drop database if exists ${database}`)
  await client.query(`create database ${database}`)
  await client.end()

  const imported = JSON.parse(
    run(node, [main, 'import', bundleFile, '--database-url', url, '--json']),
  )
  const aliceKey = imported.api_keys['alice-key'].token as string
  const email = 'alice@example.test'
  run(node, [main, 'user', 'set-password', '--email', email, '--database-url', url], {
    input: `${PASSWORD}\n`,
  })

  server = spawn(node, [main, 'serve', '--database-url', url, '--port', String(PORT)], {
    cwd: tree,
    env: {
      ...process.env,
      WORKGRAPH_SECRET: SECRET,
      LOG_LEVEL: 'warn',
      WEBHOOKS_DISPATCH: 'false',
      WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true',
    },
    stdio: 'ignore',
  })
  const base = `http://127.0.0.1:${PORT}`
  for (let i = 0; ; i++) {
    const ready = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ready) break
    if (i > 300) throw new Error('the release did not start')
    await new Promise((done) => setTimeout(done, 200))
  }
  const post = async (path: string, body: unknown): Promise<Record<string, string>> => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${aliceKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const json = await response.json()
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`)
    return json as Record<string, string>
  }
  const task = await post('/v1/tasks', {
    title: 'Written by the release before',
    project_id: imported.ids.open,
  })
  const comment = await post('/v1/comments', {
    resource_id: task.id,
    body: 'A comment the upgrade must keep',
  })
  const endpoint = await post('/v1/webhooks', {
    url: 'http://127.0.0.1:19999/upgrade-hook',
    events: ['task.created'],
  })
  server.kill('SIGTERM')
  await new Promise((done) => server?.once('exit', done))
  server = undefined

  // Plain INSERTs, so that the test can replay it through a client on either engine; psql's
  // own commands (\restrict) are dropped, since no psql runs it.
  const dump = run('pg_dump', ['--inserts', '--no-owner', '--no-privileges', '--dbname', url])
  const sql = dump
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n')
  const out = join(root, 'packages/server/test/upgrade')
  writeFileSync(join(out, `${release}.sql`), sql)
  const facts = {
    release,
    commit,
    secret: SECRET,
    workspace_id: imported.workspace_id,
    api_key: aliceKey,
    email,
    password: PASSWORD,
    ids: {
      open: imported.ids.open,
      secret: imported.ids.secret,
      task: task.id,
      comment: comment.id,
    },
    webhook: { id: endpoint.id, secret: endpoint.secret },
  }
  writeFileSync(join(out, `${release}.json`), `${JSON.stringify(facts, null, 2)}\n`)
  console.log(`wrote ${release}.sql and ${release}.json from ${commit}`)
} finally {
  server?.kill('SIGKILL')
  execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: root, stdio: 'ignore' })
  rmSync(work, { recursive: true, force: true })
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  await client.query(`drop database if exists ${database}`)
  await client.end()
}
