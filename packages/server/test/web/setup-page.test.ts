import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, before, test } from 'node:test'
import { createLogger } from '../../src/lib/logger.ts'
import { issueSetupToken, SETUP_TOKEN_LIFETIME_MS } from '../../src/setup/setup-tokens.ts'
import { Browser, formOn } from '../harness/browser.ts'
import { type ListeningApp, startListeningApp } from '../harness/browser-app.ts'
import { contentState } from '../harness/row-counts.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'

// The first-run page of a server with no workspace (docs/dashboard.md, "First run"): it needs
// the token the server printed; without it, or once a workspace exists, it is the 404 of a path
// that does not exist, for everyone.

const PASSWORD = 'a long passphrase for ada'
const TABLES = ['workspaces', 'people', 'setup_tokens', 'web_sessions']
let t: ListeningApp
// The answers of a path that does not exist, to compare the closed page's with.
let unknownHtml: { status: number; body: string; type: string | null }

before(async () => {
  t = await startListeningApp()
  const response = await fetch(`${t.origin}/no-such-page`, { headers: { accept: 'text/html' } })
  unknownHtml = {
    status: response.status,
    body: await response.text(),
    type: response.headers.get('content-type'),
  }
})
after(() => t?.close())

/** A GET and a POST of /setup answer exactly as a path that does not exist. */
async function assertClosed(query: string, note: string) {
  const page = await fetch(`${t.origin}/setup${query}`, { headers: { accept: 'text/html' } })
  assert.deepEqual(
    { status: page.status, body: await page.text(), type: page.headers.get('content-type') },
    unknownHtml,
    note,
  )
  for (const method of ['GET', 'POST', 'PUT']) {
    const api = await fetch(`${t.origin}/setup${query}`, { method })
    assert.equal(api.status, 404, `${method} ${note}`)
    const problem = (await api.json()) as { code: string; detail: string }
    assert.equal(problem.code, 'not_found')
    assert.equal(problem.detail, `There is no route ${method} /setup.`)
  }
}

/** Opens the page with a token and returns the browser, the form and its fields. */
async function openForm(token: string) {
  const browser = new Browser(t.origin)
  const page = await browser.get(`/setup?token=${token}`)
  assert.equal(page.status, 200, page.body)
  for (const [name, value] of [
    ['content-security-policy', "default-src 'none'"],
    ['x-frame-options', 'DENY'],
    ['cache-control', 'no-store'],
    ['referrer-policy', 'same-origin'],
  ] as const)
    assert.ok(page.headers.get(name)?.startsWith(value), name)
  return { browser, form: formOn(page.body, '/setup') }
}

const owner = {
  workspace_name: 'Acme',
  name: 'Ada Okafor',
  email: 'ada@acme.test',
  password: PASSWORD,
}

test('without the printed token, or with a wrong or expired one, /setup is an unknown path', async () => {
  await issueSetupToken(t.db.db, t.clock.now())
  await assertClosed('', 'no token')
  await assertClosed(`?token=${'A'.repeat(43)}`, 'a wrong token')
  await assertClosed('?token=%3Cscript%3E', 'a malformed token')
  const old = await issueSetupToken(
    t.db.db,
    new Date(t.clock.now().getTime() - SETUP_TOKEN_LIFETIME_MS),
  )
  await assertClosed(`?token=${old}`, 'an expired token')
})

test('the form checks its CSRF token and its fields, and then changes nothing', async () => {
  const token = await issueSetupToken(t.db.db, t.clock.now())
  const { browser, form } = await openForm(token)
  const before = await contentState(t.db.db, TABLES)
  const forged = await browser.post(form.action, { ...form.fields, ...owner, csrf: 'forged' })
  assert.equal(forged.status, 403)
  assert.match(forged.body, /Form expired/)
  const elsewhere = await browser.post(
    form.action,
    { ...form.fields, ...owner },
    { origin: 'https://evil.example' },
  )
  assert.equal(elsewhere.status, 403)
  const bad = await browser.post(form.action, {
    ...form.fields,
    workspace_name: '  ',
    name: 'Ada',
    email: 'not-an-email',
    password: 'short',
  })
  assert.equal(bad.status, 422)
  assert.match(bad.body, /id="workspace_name-error"/)
  assert.match(bad.body, /id="email-error"/)
  assert.match(bad.body, /id="password-error"[^>]*>The password must have 12 to 1024 characters/)
  assert.match(bad.body, /value="Ada"/, 'what was given is kept')
  assert.doesNotMatch(bad.body, /value="short"/, 'but never the password')
  assert.deepEqual(await contentState(t.db.db, TABLES), before)
})

test('the form makes the workspace and its owner, signs them in and shows the key once', async () => {
  const token = await issueSetupToken(t.db.db, t.clock.now())
  const { browser, form } = await openForm(token)
  const done = await browser.post(form.action, { ...form.fields, ...owner })
  assert.equal(done.status, 201, done.body)
  assert.equal(done.headers.get('cache-control'), 'no-store')
  const [, key] =
    /<code id="secret" class="secret-value">(wg_key_\w+)<\/code>/.exec(done.body) ?? []
  assert.ok(key, done.body)
  assert.ok(
    done.body.includes(
      `curl -s -H &#34;Authorization: Bearer ${key}&#34; ${t.origin}/v1/workspace`,
    ),
  )

  // Signed in: the dashboard opens as the owner.
  const home = await browser.get('/')
  assert.equal(home.status, 200)
  assert.match(home.body, /<h1>Acme<\/h1>/)
  assert.match(home.body, /Signed in as Ada Okafor \(owner\)/)
  const me = await fetch(`${t.origin}/v1/me`, { headers: { authorization: `Bearer ${key}` } })
  assert.equal(me.status, 200)
  assert.equal(((await me.json()) as { actor: { role: string } }).actor.role, 'owner')

  // Audited through the dashboard's session that the form started.
  const audit = await t.db.db
    .selectFrom('audit_log')
    .select(['action', 'via', 'token_kind', 'token_id'])
    .orderBy('action')
    .execute()
  assert.deepEqual(
    audit.map((entry) => [entry.action, entry.via, entry.token_kind]),
    [
      ['api_key.created', 'web', 'web_session'],
      ['workspace.created', 'web', 'web_session'],
    ],
  )
  assert.match(audit[0]?.token_id ?? '', /^web_session:[0-9a-f]{16}$/)

  // A reload sends the form again: the person it signed in is told it is done, with no key.
  const reload = await browser.post(form.action, { ...form.fields, ...owner })
  assert.equal(reload.status, 200)
  assert.match(reload.body, /Already set up/)
  assert.doesNotMatch(reload.body, /wg_key_/)
  assert.equal((await t.db.db.selectFrom('workspaces').select('id').execute()).length, 1)

  // Everyone else, with the same token or any other, finds nothing there.
  await assertClosed(`?token=${token}`, 'the used token, once a workspace exists')
  await assertClosed(`?token=${await issueSetupToken(t.db.db, t.clock.now())}`, 'a new token')
  assert.equal((await browser.get(`/setup?token=${token}`)).status, 404, 'the owner too')
})

test('two submissions at once make one workspace', async () => {
  const fresh: TestApp = await startTestApp()
  try {
    const token = await issueSetupToken(fresh.db.db, fresh.clock.now())
    const get = await fresh.app.inject({ method: 'GET', url: `/setup?token=${token}` })
    assert.equal(get.statusCode, 200)
    const cookie = get.cookies.map((c) => `${c.name}=${c.value}`).join('; ')
    const csrf = /name="csrf" value="([^"]+)"/.exec(get.body)?.[1] as string
    const post = (name: string) =>
      fresh.app.inject({
        method: 'POST',
        url: '/setup',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ ...owner, csrf, token, workspace_name: name }).toString(),
      })
    const answers = await Promise.all([post('First'), post('Second'), post('Third')])
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [201, 404, 404])
    const workspaces = await fresh.db.db.selectFrom('workspaces').select('name').execute()
    assert.equal(workspaces.length, 1)
    const people = await fresh.db.db.selectFrom('people').select('id').execute()
    assert.equal(people.length, 1)
  } finally {
    await fresh.close()
  }
})

test('the request log never holds the token', async () => {
  let logged = ''
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logged += chunk
      done()
    },
  })
  const logging = await startTestApp({ logger: createLogger('debug', sink) })
  try {
    const token = await issueSetupToken(logging.db.db, logging.clock.now())
    const page = await logging.app.inject({ method: 'GET', url: `/setup?token=${token}` })
    assert.equal(page.statusCode, 200)
    await logging.app.inject({ method: 'GET', url: `/set-password/${token}` })
    assert.match(logged, /"url":"\/setup"/)
    assert.match(logged, /"url":"\/set-password\/:token"/)
    assert.ok(!logged.includes(token), logged)
  } finally {
    await logging.close()
  }
})
