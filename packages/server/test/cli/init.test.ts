import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, test } from 'node:test'
import { scopesOfRole } from '../../src/access/role-scopes.ts'
import { openMigratedDatabase } from '../../src/cli/open-database.ts'
import { loadConfig } from '../../src/config.ts'
import type { DatabaseHandle } from '../../src/db/connect.ts'
import { verifyPassword } from '../../src/lib/password.ts'
import { Browser, formOn } from '../harness/browser.ts'
import { type CliData, cliData, freePort, runCaptured } from '../harness/cli.ts'
import { contentState } from '../harness/row-counts.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'

// `workgraph init` on the engine the suite runs: a data folder of its own on PGlite, a database
// of its own on PostgreSQL. What it prints is used as an operator would: the key against the
// real app, the password on the dashboard's sign-in, the link in a browser.

const PASSWORD = 'a long passphrase for ada'
let cli: CliData
let port: number
let origin: string
let env: NodeJS.ProcessEnv

before(async () => {
  cli = await cliData('workgraph-init-')
  port = await freePort()
  origin = `http://127.0.0.1:${port}`
  // The links and the curl line init prints name the server the test app plays.
  env = { PUBLIC_URL: origin }
})
after(() => cli.close())

const init = (args: string[], stdin = '') =>
  runCaptured(['init', ...args, ...cli.target], env, stdin)

/** The database the commands of this file use, opened in this process (no command holds it). */
async function openData(): Promise<DatabaseHandle> {
  const [flag, value] = cli.target
  return openMigratedDatabase(
    loadConfig({}, flag === '--data' ? { data: value } : { databaseUrl: value }),
  )
}

/** The real app on the commands' database, listening where init's links say; then closed. */
async function withApp<T>(work: (t: TestApp) => Promise<T>): Promise<T> {
  const handle = await openData()
  const t = await startTestApp({
    env: { PUBLIC_URL: origin, OAUTH_SIGN_INS_PER_MINUTE: '1000' },
    database: { ...handle, url: undefined },
  })
  try {
    await t.app.listen({ port, host: '127.0.0.1' })
    return await work(t)
  } finally {
    await t.close()
    await handle.close()
  }
}

const TABLES = ['workspaces', 'people', 'password_links', 'setup_tokens', 'web_sessions']

/** Signs in on the dashboard's form; the page it lands on. */
async function signIn(browser: Browser, email: string, password: string) {
  const form = formOn((await browser.get('/sign-in')).body, '/sign-in')
  return browser.post(form.action, { ...form.fields, email, password })
}

test('init on an empty database makes the workspace and its owner; the printed key works', async () => {
  const made = await init(
    ['--workspace-name', 'Acme', '--name', 'Ada Okafor', '--email', 'ada@acme.test'],
    `${PASSWORD}\n`,
  )
  assert.equal(made.code, 0, made.stderr)
  assert.doesNotMatch(made.stdout + made.stderr, /passphrase/)
  const [, key] = /API key of Ada Okafor, owner .*: (wg_key_\w+)/.exec(made.stdout) ?? []
  assert.ok(key, made.stdout)
  const curl = `curl -s -H "Authorization: Bearer ${key}" ${origin}/v1/workspace`
  assert.ok(made.stdout.includes(curl), made.stdout)
  assert.match(made.stdout, /Dashboard sign-in: ada@acme\.test with the password you gave/)

  await withApp(async (t) => {
    const headers = { authorization: `Bearer ${key}` }
    const workspace = await fetch(`${origin}/v1/workspace`, { headers })
    assert.equal(workspace.status, 200)
    const body = (await workspace.json()) as { id: string; name: string }
    assert.equal(body.name, 'Acme')
    assert.ok(made.stdout.includes(body.id))
    const me = await fetch(`${origin}/v1/me`, { headers })
    assert.equal(me.status, 200)
    const who = (await me.json()) as {
      actor: { name: string; role: string }
      workspace: { id: string }
      credential: { scopes: string[] }
    }
    assert.equal(who.actor.name, 'Ada Okafor')
    assert.equal(who.actor.role, 'owner')
    assert.equal(who.workspace.id, body.id)
    assert.deepEqual(who.credential.scopes, [...scopesOfRole('owner')].sort())

    // Stored hashed, as every key; the creation and the key are audited, through the CLI.
    const keys = await t.db.db.selectFrom('tokens').select(['secret_hash', 'last4']).execute()
    assert.equal(keys.length, 1)
    assert.deepEqual(
      keys[0]?.secret_hash,
      createHash('sha256')
        .update(key as string)
        .digest(),
    )
    const audit = await fetch(`${origin}/v1/audit`, { headers })
    const entries = ((await audit.json()) as { data: { action: string; via: string }[] }).data
    assert.deepEqual(entries.map((entry) => [entry.action, entry.via]).sort(), [
      ['api_key.created', 'cli'],
      ['workspace.created', 'cli'],
    ])

    // The piped password signs in on the dashboard.
    const browser = new Browser(origin)
    assert.equal((await signIn(browser, 'ada@acme.test', 'not the password')).status, 401)
    const signedIn = await signIn(browser, 'ada@acme.test', PASSWORD)
    assert.equal(signedIn.status, 303)
    const home = await browser.get('/')
    assert.equal(home.status, 200)
    assert.match(home.body, /<h1>Acme<\/h1>/)
  })
})

test('a second init refuses with exit status 1 and changes nothing', async () => {
  const handle = await openData()
  const before = await contentState(handle.db, TABLES)
  await handle.close()
  const again = await init(
    ['--workspace-name', 'Other', '--name', 'Eve', '--email', 'eve@acme.test'],
    `${PASSWORD}\n`,
  )
  assert.equal(again.code, 1)
  assert.match(again.stderr, /has a workspace already, so init changed nothing/)
  assert.match(again.stderr, /--another-workspace/)
  assert.equal(again.stdout, '')
  const after = await openData()
  try {
    assert.deepEqual(await contentState(after.db, TABLES), before)
  } finally {
    await after.close()
  }
})

test('usage errors name the flag and exit 2', async () => {
  const missing = await init(['--name', 'Eve'])
  assert.equal(missing.code, 2)
  assert.match(missing.stderr, /^Give --workspace-name, --email\.\n/)
  const email = await init(['--workspace-name', 'X', '--name', 'Eve', '--email', 'not an email'])
  assert.equal(email.code, 2)
  assert.match(email.stderr, /--email "not an email" is not an email address/)
  const long = await init([
    '--workspace-name',
    'x'.repeat(201),
    '--name',
    'E',
    '--email',
    'e@x.test',
  ])
  assert.equal(long.code, 2)
  assert.equal((await init(['--bogus'])).code, 2)
})

test('--another-workspace adds one; an email that signs in already keeps its password', async () => {
  const added = await init(
    [
      '--workspace-name',
      'Acme labs',
      '--name',
      'Ada O.',
      '--email',
      'ADA@acme.test',
      '--another-workspace',
    ],
    // Not read: the email has a password, and one email has one password everywhere.
    'another password entirely\n',
  )
  assert.equal(added.code, 0, added.stderr)
  assert.match(added.stdout, /with the password this email has already/)
  const handle = await openData()
  try {
    const people = await handle.db
      .selectFrom('people')
      .select(['password_hash', 'role'])
      .where('email', 'ilike', 'ada@acme.test')
      .execute()
    assert.equal(people.length, 2)
    assert.equal(new Set(people.map((person) => person.password_hash)).size, 1)
    assert.ok(await verifyPassword(PASSWORD, people[0]?.password_hash as string))
    const workspaces = await handle.db.selectFrom('workspaces').select('id').execute()
    assert.equal(workspaces.length, 2)
  } finally {
    await handle.close()
  }
})

test('a short piped password is refused and nothing is made', async () => {
  const short = await init(
    [
      '--workspace-name',
      'Tiny',
      '--name',
      'Tim',
      '--email',
      'tim@acme.test',
      '--another-workspace',
    ],
    'short\n',
  )
  assert.equal(short.code, 1)
  assert.match(short.stderr, /The password must have 12 to 1024 characters/)
  const handle = await openData()
  try {
    const tim = await handle.db
      .selectFrom('people')
      .select('id')
      .where('email', '=', 'tim@acme.test')
    assert.equal((await tim.execute()).length, 0)
  } finally {
    await handle.close()
  }
})

test('--no-password prints a link that sets the password once; a second use fails cleanly', async () => {
  const made = await init([
    '--workspace-name',
    'Beta',
    '--name',
    'Bo Lind',
    '--email',
    'bo@beta.test',
    '--no-password',
    '--another-workspace',
  ])
  assert.equal(made.code, 0, made.stderr)
  const [, link] = /^ {2}(http:\S+\/set-password\/\S+)$/m.exec(made.stdout) ?? []
  assert.ok(link?.startsWith(`${origin}/set-password/`), made.stdout)
  await withApp(async (t) => {
    // Only the link's hash is kept.
    const token = (link as string).split('/').at(-1) as string
    const rows = await t.db.db.selectFrom('password_links').select('id_hash').execute()
    assert.equal(rows.length, 1)
    assert.deepEqual(rows[0]?.id_hash, createHash('sha256').update(token).digest())

    const browser = new Browser(origin)
    assert.equal((await signIn(browser, 'bo@beta.test', 'a password never set')).status, 401)
    const page = await browser.get(link as string)
    assert.equal(page.status, 200)
    assert.match(page.body, /Choose your password/)
    assert.match(page.body, /bo@beta\.test/)
    const form = formOn(page.body, '/set-password/')
    // A form whose token is forged is refused, and the link still works.
    const forged = await browser.post(form.action, {
      csrf: 'forged',
      password: 'chosen by bo here',
    })
    assert.equal(forged.status, 403)
    const short = await browser.post(form.action, { ...form.fields, password: 'short' })
    assert.equal(short.status, 422)
    assert.match(short.body, /12 to 1024 characters/)
    const set = await browser.post(form.action, { ...form.fields, password: 'chosen by bo here' })
    assert.equal(set.status, 303)
    assert.equal(set.location, `${origin}/`)
    const home = await browser.get('/')
    assert.equal(home.status, 200, 'signed in by the link')
    assert.match(home.body, /<h1>Beta<\/h1>/)

    // The link is spent: opening or sending it again says so, and changes nothing.
    const other = new Browser(origin)
    const gone = await other.get(link as string)
    assert.equal(gone.status, 410)
    assert.match(gone.body, /Link not valid/)
    const before = await contentState(t.db.db, TABLES)
    const again = await browser.post(form.action, {
      ...form.fields,
      password: 'a takeover attempt',
    })
    assert.equal(again.status, 410)
    assert.match(again.body, /Link not valid/)
    assert.deepEqual(await contentState(t.db.db, TABLES), before)
    assert.equal((await signIn(other, 'bo@beta.test', 'a takeover attempt')).status, 401)
    assert.equal((await signIn(other, 'bo@beta.test', 'chosen by bo here')).status, 303)
  })
})
