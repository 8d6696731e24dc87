import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { openMigratedDatabase } from '../../src/cli/open-database.ts'
import { loadConfig } from '../../src/config.ts'
import { MALLOC_SETTINGS } from '../../src/lib/malloc-settings.ts'
import { verifyPassword } from '../../src/lib/password.ts'
import { startSession } from '../../src/web/web-session.ts'
import { smallBundle } from '../harness/bundles.ts'
import { type CliData, cliData, freePort, runCaptured, startCli } from '../harness/cli.ts'
import { childrenOf, endsWithin } from '../harness/processes.ts'
import { TEST_SECRET } from '../harness/test-app.ts'
import { ENGINE } from '../harness/test-database.ts'

// On PGlite the commands use a data folder of this file; on PostgreSQL a database of its own.
let cli: CliData
let dir: string
let target: string[]
const env = { WORKGRAPH_SECRET: TEST_SECRET.toString('base64') }

before(async () => {
  cli = await cliData('workgraph-cli-')
  dir = cli.dir
  target = cli.target
})
after(() => cli.close())

test('import --json prints the id map and the secrets of what it created', async () => {
  const file = join(dir, 'bundle.json')
  writeFileSync(file, JSON.stringify(smallBundle()))
  const { code, stdout } = await runCaptured(['import', file, ...target, '--json'], env)
  assert.equal(code, 0)
  const result = JSON.parse(stdout)
  assert.match(result.workspace_id, /^wsp_/)
  assert.match(result.ids.alice, /^usr_/)
  assert.match(result.api_keys['alice-key'].token, /^wg_key_/)
  assert.match(result.workspace_tokens['bot-token'].token, /^wg_wst_/)
  assert.deepEqual(Object.keys(result).sort(), [
    'api_keys',
    'ids',
    'oauth_clients',
    'workspace_id',
    'workspace_tokens',
  ])
})

test('import of an invalid bundle lists every problem by path and exits 1', async () => {
  const file = join(dir, 'broken.json')
  const bundle = smallBundle()
  bundle.people[1] = { ...bundle.people[1], role: 'boss' } as never
  bundle.tasks?.push({ key: 'x', title: 'X', status: 'todo', creator: 'nobody', due: '2026-13-40' })
  writeFileSync(file, JSON.stringify(bundle))
  const human = await runCaptured(['import', file, ...target], env)
  assert.equal(human.code, 1)
  assert.match(human.stderr, /nothing was written\. 3 problems/)
  assert.match(human.stderr, /\/people\/1\/role: must be one of/)
  assert.match(human.stderr, /\/tasks\/2\/creator: refers to "nobody"/)
  assert.match(human.stderr, /\/tasks\/2\/due: must be a date/)
  const json = await runCaptured(['import', file, ...target, '--json'], env)
  assert.equal(json.code, 1)
  assert.equal(JSON.parse(json.stdout).problems.length, 3)
  writeFileSync(file, '{"format": ')
  const garbage = await runCaptured(['import', file, ...target], env)
  assert.equal(garbage.code, 1)
  assert.match(garbage.stderr, /not valid JSON/)
})

test('import as a process (on the embedded database, in a Liftoff-only child) passes on its output and exit status', async () => {
  const file = join(dir, 'process-bundle.json')
  writeFileSync(file, JSON.stringify(smallBundle()))
  const imported = startCli(['import', file, ...target, '--json'], env)
  assert.equal(await imported.exit(120_000), 0, imported.output())
  assert.match(JSON.parse(imported.output()).workspace_id, /^wsp_/)
  writeFileSync(file, '{"format": ')
  const broken = startCli(['import', file, ...target], env)
  assert.equal(await broken.exit(120_000), 1)
  assert.match(broken.output(), /not valid JSON/)
})

test('a signal that stops an embedded import stops its child too', {
  skip: ENGINE === 'postgres' && "imports into PostgreSQL run in the command's process",
}, async () => {
  const file = join(dir, 'signal-bundle.json')
  writeFileSync(file, JSON.stringify(smallBundle()))
  const imported = startCli(['import', file, '--data', join(dir, 'signal-data')], env)
  const parent = imported.child.pid as number
  let child: number | undefined
  for (let i = 0; i < 1200 && child === undefined; i++) {
    child = childrenOf(parent)[0]
    if (child === undefined) await new Promise((resolve) => setTimeout(resolve, 25))
  }
  assert.ok(child, `no child of ${parent}:\n${imported.output()}`)
  process.kill(parent, 'SIGTERM')
  assert.notEqual(await imported.exit(), 0)
  assert.ok(await endsWithin(child), 'the child went on importing alone')
})

test("kill -9 of an embedded import's command ends its child: nothing imported, the folder free", {
  skip: ENGINE === 'postgres' && "imports into PostgreSQL run in the command's process",
}, async () => {
  const file = join(dir, 'killed-bundle.json')
  assert.equal((await runCaptured(['demo', '--out', file, '--scale', '3000'])).code, 0)
  const data = join(dir, 'killed-data')
  const imported = startCli(['import', file, '--data', data], env)
  const parent = imported.child.pid as number
  let child: number | undefined
  for (let i = 0; i < 1200 && child === undefined; i++) {
    child = childrenOf(parent)[0]
    if (child === undefined) await new Promise((resolve) => setTimeout(resolve, 25))
  }
  assert.ok(child, `no child of ${parent}:\n${imported.output()}`)
  // Well into the import: the child holds the folder's lock (its key is made then) and writes.
  for (let i = 0; i < 1200 && !existsSync(join(data, 'lock-key')); i++)
    await new Promise((resolve) => setTimeout(resolve, 25))
  await new Promise((resolve) => setTimeout(resolve, 1500))
  process.kill(parent, 'SIGKILL')
  await imported.exit()
  assert.ok(await endsWithin(child), 'the child went on importing alone')
  // All or nothing, and the lock went with the child: a new import runs, and is the only one.
  const again = await runCaptured(['import', file, '--data', data, '--json'], env)
  assert.equal(again.code, 0, again.stderr)
  const handle = await openMigratedDatabase(loadConfig({}, { data }))
  try {
    const workspaces = await handle.db.selectFrom('workspaces').select('id').execute()
    assert.equal(workspaces.length, 1)
  } finally {
    await handle.close()
  }
})

test('--data on the command line wins over DATABASE_URL; both flags at once are a usage error', {
  skip:
    ENGINE === 'postgres' && 'it runs on the embedded database whichever engine the suite tests',
}, async () => {
  // Nothing listens on port 1: had DATABASE_URL won, the command could not connect.
  const unreachable = { ...env, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' }
  const data = ['--data', join(dir, 'flag-wins')]
  const migrated = await runCaptured(['migrate', ...data], unreachable)
  assert.equal(migrated.code, 0, migrated.stderr)
  assert.match(migrated.stdout, /embedded database/)
  const both = await runCaptured(['migrate', ...data, '--database-url', 'postgres://x@y/z'], env)
  assert.equal(both.code, 2)
  assert.match(both.stderr, /--data or --database-url, not both/)
})

test('demo writes a valid bundle; bad arguments are usage errors', async () => {
  const file = join(dir, 'demo.json')
  assert.equal((await runCaptured(['demo', '--out', file, '--today', '2026-11-22'])).code, 0)
  assert.equal((await runCaptured(['demo', '--scale', 'lots'])).code, 2)
  assert.equal((await runCaptured(['demo', '--nonsense'])).code, 2)
  assert.equal((await runCaptured(['launch'])).code, 2)
})

test('serve --demo prints a curl line that works, and shuts down on SIGTERM', async () => {
  const port = await freePort()
  const server = startCli(['serve', '--demo', '--port', String(port), ...target], env)
  const [, key] = await server.waitFor(
    /Authorization: Bearer (wg_key_\w+)" http:\/\/127\.0\.0\.1:\d+\/v1\/projects/,
  )
  // On Linux the server restarted itself in place with malloc's settings: the process started is
  // the one serving, and the SIGTERM below reaches it.
  if (process.platform === 'linux') {
    const environ = readFileSync(`/proc/${server.child.pid}/environ`, 'utf8').split('\0')
    for (const [name, value] of Object.entries(MALLOC_SETTINGS))
      assert.ok(environ.includes(`${name}=${value}`), `${name} is not ${value}`)
  }
  const response = await fetch(`http://127.0.0.1:${port}/v1/projects`, {
    headers: { authorization: `Bearer ${key}` },
  })
  assert.equal(response.status, 200)
  const body = (await response.json()) as { data: unknown[] }
  assert.ok(body.data.length > 5)
  // The demo's webhooks may call a receiver on this machine over plain http, without a setting.
  const hook = await fetch(`http://127.0.0.1:${port}/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://127.0.0.1:4000/hook', events: ['task.created'] }),
  })
  assert.equal(hook.status, 201, await hook.clone().text())
  assert.match(server.output(), /WEBHOOKS_ALLOW_HTTP_LOOPBACK is on in the demo/)
  server.child.kill('SIGTERM')
  assert.equal(await server.exit(), 0)
})

test('a second serve on the same data folder refuses to start', {
  skip: ENGINE !== 'pglite',
}, async () => {
  const data = ['--data', join(dir, 'locked')]
  const first = startCli(['serve', '--port', String(await freePort()), ...data], env)
  await first.waitFor(/listening on/)
  const second = startCli(['serve', '--port', String(await freePort()), ...data], env)
  assert.equal(await second.exit(), 1)
  assert.match(second.output(), /in use by another Workgraph process \(pid \d+\)/)
  // A killed holder's lock goes with it: the next serve starts.
  first.child.kill('SIGKILL')
  await first.exit()
  const third = startCli(['serve', '--port', String(await freePort()), ...data], env)
  await third.waitFor(/listening on/)
  third.child.kill('SIGTERM')
  assert.equal(await third.exit(), 0)
})

test('set-password while a server holds the embedded database says what to do', {
  skip: ENGINE !== 'pglite',
}, async () => {
  const data = ['--data', join(dir, 'held')]
  const server = startCli(['serve', '--demo', '--port', String(await freePort()), ...data], env)
  try {
    const [, email] = await server.waitFor(/Sign-in for the dashboard and OAuth apps: (\S+) \//)
    const set = await runCaptured(
      ['user', 'set-password', '--email', email as string, ...data],
      env,
      'a long passphrase\n',
    )
    assert.equal(set.code, 1)
    assert.match(set.stderr, /in use by another Workgraph process \(pid \d+\)/)
    assert.match(set.stderr, /stop it \(Ctrl-C where it runs\), run this again, then start it/)
  } finally {
    server.child.kill('SIGTERM')
    await server.exit()
  }
})

test('user set-password reads stdin; oauth-client create registers public and confidential apps', async () => {
  const file = join(dir, 'people.json')
  writeFileSync(file, JSON.stringify(smallBundle()))
  const imported = JSON.parse(
    (await runCaptured(['import', file, ...target, '--json'], env)).stdout,
  )
  const workspace = imported.workspace_id as string
  const setPassword = (args: string[], stdin: string) =>
    runCaptured(['user', 'set-password', ...args, ...target], env, stdin)

  const withWorkspace = await setPassword(
    ['--email', 'alice@example.test', '--workspace', workspace],
    'a long passphrase\n',
  )
  assert.equal(withWorkspace.code, 2, 'one password per email: no workspace to choose')
  assert.match(withWorkspace.stderr, /takes no --workspace/)
  assert.equal((await setPassword(['--email', 'alice@example.test'], 'short\n')).code, 1)
  assert.equal(
    (await setPassword(['--email', 'nobody@example.test'], 'a long passphrase\n')).code,
    1,
  )
  const open = () =>
    openMigratedDatabase(
      loadConfig(env, {
        data: target[0] === '--data' ? target[1] : undefined,
        databaseUrl: target[0] === '--database-url' ? target[1] : undefined,
      }),
    )
  // A dashboard session of Alice's, which the new password must end.
  const before = await open()
  try {
    await startSession(before.db, {
      workspaceId: workspace,
      personId: imported.ids.alice,
      now: new Date(),
    })
  } finally {
    await before.close()
  }
  // Alice is a person of every workspace imported: the email gets one password in all of them.
  const done = await setPassword(['--email', 'Alice@Example.test'], 'a long passphrase\n')
  assert.equal(done.code, 0, done.stderr)
  assert.ok(!done.stdout.includes('a long passphrase'))
  assert.match(done.stdout, new RegExp(`${imported.ids.alice} in ${workspace}`))

  const handle = await open()
  try {
    const sessions = await handle.db
      .selectFrom('web_sessions')
      .select('ended_at')
      .where('person_id', '=', imported.ids.alice)
      .execute()
    assert.equal(sessions.length, 1)
    assert.ok(sessions[0]?.ended_at, 'a new password ends the dashboard sessions')
    const people = await handle.db
      .selectFrom('people')
      .select('password_hash')
      .where('email', '=', 'alice@example.test')
      .execute()
    assert.ok(people.length >= 2, 'the imports of this file made Alice several times')
    assert.equal(new Set(people.map((person) => person.password_hash)).size, 1, 'one hash')
    assert.ok(await verifyPassword('a long passphrase', people[0]?.password_hash as string))
  } finally {
    await handle.close()
  }

  const created = await runCaptured(
    [
      'oauth-client',
      'create',
      '--name',
      'Agent',
      '--redirect-uri',
      'http://127.0.0.1:7777/cb',
      '--json',
      ...target,
    ],
    env,
  )
  assert.equal(created.code, 0, created.stderr)
  const app = JSON.parse(created.stdout)
  assert.match(app.client_id, /^cli_/)
  assert.equal(app.client_secret, undefined)
  const confidential = await runCaptured(
    [
      'oauth-client',
      'create',
      '--name',
      'Reports',
      '--redirect-uri',
      'https://reports.example.test/cb',
      '--confidential',
      '--workspace',
      workspace,
      ...target,
    ],
    env,
  )
  assert.equal(confidential.code, 0, confidential.stderr)
  assert.match(confidential.stdout, /client_secret: wg_cs_/)
  const badUri = [
    'oauth-client',
    'create',
    '--name',
    'X',
    '--redirect-uri',
    'http://evil.example.test/cb',
    ...target,
  ]
  assert.equal((await runCaptured(badUri, env)).code, 2)
  const noWorkspace = [
    'oauth-client',
    'create',
    '--name',
    'X',
    '--redirect-uri',
    'https://x.test/cb',
    '--workspace',
    'wsp_nope',
    ...target,
  ]
  assert.equal((await runCaptured(noWorkspace, env)).code, 1)
})

// The pids whose parent is `pid` (from /proc: Linux only, as the suite is).
