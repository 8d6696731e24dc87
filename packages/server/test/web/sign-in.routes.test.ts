import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { contentState } from '../harness/row-counts.ts'
import { client, type Reply, startTestApp, type TestApp } from '../harness/test-app.ts'
import { type Fields, hiddenValue, mainText, signIn } from '../harness/web-visitor.ts'

// The dashboard's sign-in and sign-out (web/sign-in.routes.ts): GET and POST /sign-in, POST
// /sign-in/workspace and POST /sign-out. One hash per attempt is sign-in-cost.test.ts's subject;
// return_to values a header cannot carry, return-to.test.ts's; the pages in a browser,
// browser/sign-in.

const ORIGIN = 'http://127.0.0.1:8080'
const PASSWORD = 'a long test passphrase'
const WRONG = 'That email and password do not match an account.'
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

let t: TestApp
let ws: ImportResult
let zeta: ImportResult
before(async () => {
  t = await startTestApp({ env: { PUBLIC_URL: ORIGIN, OAUTH_SIGN_INS_PER_MINUTE: '100000' } })
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  ws = await importOk(t.db.db, bundle)
  // Alice is also the owner of a second workspace, with the same email and password.
  zeta = await importOk(t.db.db, {
    format: 'workgraph.bundle/v1',
    workspace: { key: 'z', name: 'Zeta corp' },
    people: [
      {
        key: 'alice',
        name: 'Alice Z',
        email: 'alice@example.test',
        role: 'owner',
        password: PASSWORD,
      },
    ],
  })
})
after(() => t.close())

/** One `Set-Cookie` line of a reply, by cookie name. */
const setCookie = (reply: Reply, name: string) =>
  [reply.headers['set-cookie'] ?? []].flat().find((line) => String(line).startsWith(`${name}=`))

/** A signed-out browser on the sign-in page: its pre-session cookie and the form's token. */
async function signInForm(app: TestApp = t, query = '') {
  const page = await client(app.app).get(`/sign-in${query}`)
  assert.equal(page.status, 200)
  const cookie = String(setCookie(page, 'workgraph_sign_in')).split(';')[0] as string
  return { cookie, csrf: hiddenValue(page.body, 'csrf'), page }
}

/** Posts a sign-in form as that browser's page would. */
async function post(
  url: string,
  browser: { cookie: string; csrf: string },
  fields: Fields,
  headers: Record<string, string> = {},
  app: TestApp = t,
) {
  const payload = new URLSearchParams([['csrf', browser.csrf], ...fields]).toString()
  return client(app.app).post(url, payload, {
    ...FORM,
    cookie: browser.cookie,
    origin: ORIGIN,
    ...headers,
  })
}

const sessionsOf = (personId: string) =>
  t.db.db.selectFrom('web_sessions').selectAll().where('person_id', '=', personId).execute()
// What a refused sign-in must leave alone: sessions, and the attempt budgets.
const state = () => contentState(t.db.db, ['web_sessions', 'rate_limit_windows'])

/** The workspace choices of a choice page: label and value. */
const choicesOn = (body: string) =>
  [...body.matchAll(/value="([^"]+)"[^>]*>\s*<label for="choice-\d+">([^<]+)<\/label>/g)].map(
    (m) => ({ value: m[1] as string, label: m[2] as string }),
  )

test('the sign-in page sets a pre-session cookie and binds its form to it', async () => {
  const { cookie, csrf, page } = await signInForm(t, '?return_to=%2Fwebhooks')
  assert.equal(page.headers['cache-control'], 'no-store')
  assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/)
  const line = String(setCookie(page, 'workgraph_sign_in'))
  assert.match(line, /^workgraph_sign_in=[A-Za-z0-9_-]{43}; /)
  assert.match(line, /; HttpOnly/)
  assert.match(line, /; SameSite=Lax/)
  assert.match(line, /; Path=\//)
  assert.match(mainText(page.body), /^Sign in Sign in with your Workgraph email and password\./)
  assert.equal(hiddenValue(page.body, 'return_to'), '/webhooks')
  assert.match(csrf, /^[A-Za-z0-9_-]{43}$/)
  // The same browser keeps its cookie and token; another browser gets its own.
  const again = await client(t.app).get('/sign-in', { cookie })
  assert.equal(setCookie(again, 'workgraph_sign_in'), undefined)
  assert.equal(hiddenValue(again.body, 'csrf'), csrf)
  assert.notEqual((await signInForm()).csrf, csrf)
  // A return_to that would leave this origin is not carried.
  const evil = await signInForm(t, `?return_to=${encodeURIComponent('//evil.example/x')}`)
  assert.equal(hiddenValue(evil.page.body, 'return_to'), '/')
})

test('a signed-in visitor is sent on to return_to at once', async () => {
  const bob = await signIn(t, { workspaceId: ws.workspace_id, personId: ws.ids.bob as string })
  for (const [returnTo, location] of [
    ['/webhooks', '/webhooks'],
    ['https://evil.example/', '/'],
    [undefined, '/'],
  ]) {
    const query = returnTo === undefined ? '' : `?return_to=${encodeURIComponent(returnTo)}`
    const reply = await bob.get(`/sign-in${query}`)
    assert.equal(reply.status, 303, returnTo)
    assert.equal(reply.headers.location, location, returnTo)
    assert.equal(reply.headers['cache-control'], 'no-store')
  }
})

test('the right email and password: a new session, its cookie, and on to return_to', async () => {
  const browser = await signInForm()
  const before = await sessionsOf(ws.ids.bob as string)
  const reply = await post('/sign-in', browser, [
    ['email', 'bob@example.test'],
    ['password', PASSWORD],
    ['return_to', '/webhooks'],
  ])
  assert.equal(reply.status, 303, mainText(reply.body))
  assert.equal(reply.headers.location, '/webhooks')
  assert.equal(reply.headers['cache-control'], 'no-store')
  const line = String(setCookie(reply, 'workgraph_session'))
  assert.match(line, /^workgraph_session=[A-Za-z0-9_-]{43}; /)
  assert.match(line, /; HttpOnly/)
  assert.match(line, /; SameSite=Lax/)
  assert.match(
    String(setCookie(reply, 'workgraph_sign_in')),
    /^workgraph_sign_in=; .*Expires=Thu, 01 Jan 1970/,
  )
  assert.equal((await sessionsOf(ws.ids.bob as string)).length, before.length + 1)
  const home = await client(t.app).get('/', { cookie: line.split(';')[0] as string })
  assert.equal(home.status, 200)
  assert.match(mainText(home.body), /Signed in as Bob Member \(member\)/)
})

test('a wrong password or unknown email: one 401 page, email kept, no session', async () => {
  const browser = await signInForm()
  const before = await contentState(t.db.db, ['web_sessions'])
  const answers: string[] = []
  for (const [email, password] of [
    ['bob@example.test', 'not the password'],
    ['nobody@example.test', PASSWORD],
    ['bob@example.test', ''],
  ]) {
    const reply = await post('/sign-in', browser, [
      ['email', email as string],
      ['password', password as string],
      ['return_to', '/webhooks'],
    ])
    assert.equal(reply.status, 401, email)
    assert.equal(/<p class="error" role="alert">([^<]*)<\/p>/.exec(reply.body)?.[1], WRONG)
    assert.match(reply.body, new RegExp(`name="email" type="email"[^>]* value="${email}"`))
    if (password) assert.ok(!reply.body.includes(password), 'the password is not echoed')
    assert.equal(hiddenValue(reply.body, 'return_to'), '/webhooks')
    // The page's text (the email is only in its field) is the same whatever was wrong.
    answers.push(mainText(reply.body))
  }
  assert.equal(new Set(answers).size, 1, 'nothing tells an unknown email from a wrong password')
  assert.deepEqual(await contentState(t.db.db, ['web_sessions']), before)
})

test('a sign-in without its pre-session cookie and token, or cross-site: 403', async () => {
  const browser = await signInForm()
  const other = await signInForm()
  const fields: Fields = [
    ['email', 'bob@example.test'],
    ['password', PASSWORD],
  ]
  const before = await state()
  for (const [what, form, headers] of [
    ['no pre-session cookie', browser, { cookie: '' }],
    ["another browser's token", { ...browser, csrf: other.csrf }, {}],
    ['a malformed pre-session cookie', { ...browser, cookie: 'workgraph_sign_in=x' }, {}],
    ['another origin', browser, { origin: 'https://evil.example' }],
    ['a cross-site fetch', browser, { 'sec-fetch-site': 'cross-site' }],
  ] as const) {
    const reply = await post('/sign-in', form, fields, headers)
    assert.equal(reply.status, 403, what)
    assert.match(reply.body, /<h1>Form expired<\/h1>/, what)
    assert.equal(setCookie(reply, 'workgraph_session'), undefined, what)
  }
  // Refused before the attempt is counted: no session, and no budget spent.
  assert.deepEqual(await state(), before)
})

test('an email in several workspaces chooses one and is signed in to it', async () => {
  const browser = await signInForm()
  const before = await state()
  const choice = await post('/sign-in', browser, [
    ['email', 'alice@example.test'],
    ['password', PASSWORD],
    ['return_to', '/settings/api-keys'],
  ])
  assert.equal(choice.status, 200, mainText(choice.body))
  assert.match(choice.body, /<h1>Choose a workspace<\/h1>/)
  assert.match(choice.body, /<form class="stack" method="post" action="\/sign-in\/workspace">/)
  assert.equal(hiddenValue(choice.body, 'return_to'), '/settings/api-keys')
  const choices = choicesOn(choice.body)
  assert.deepEqual(
    choices.map((c) => c.label),
    ['Test workspace (member)', 'Zeta corp (owner)'],
  )
  const { rate_limit_windows: _spent, ...unchanged } = before
  const { rate_limit_windows: _now, ...now } = await state()
  assert.deepEqual(now, unchanged, 'no session before the choice')
  const chosen = await post('/sign-in/workspace', browser, [
    ['choice', choices[1]?.value as string],
    ['return_to', '/settings/api-keys'],
  ])
  assert.equal(chosen.status, 303, mainText(chosen.body))
  assert.equal(chosen.headers.location, '/settings/api-keys')
  const cookie = String(setCookie(chosen, 'workgraph_session')).split(';')[0] as string
  assert.equal((await sessionsOf(zeta.ids.alice as string)).length, 1)
  const home = await client(t.app).get('/', { cookie })
  assert.match(mainText(home.body), /^Zeta corp Signed in as Alice Z \(owner\)/)
})

test('a workspace choice counts only unaltered, in its browser, for ten minutes', async () => {
  const browser = await signInForm()
  const choice = await post('/sign-in', browser, [
    ['email', 'alice@example.test'],
    ['password', PASSWORD],
  ])
  const [first] = choicesOn(choice.body)
  const value = first?.value as string
  // The proof binds the person: the same proof naming bob is refused.
  const altered = value.replace(ws.ids.alice as string, ws.ids.bob as string)
  const before = await state()
  const other = await signInForm()
  for (const [what, form, chosen] of [
    ['another browser', other, value],
    ['an altered choice', browser, altered],
    ['no choice', browser, ''],
    ['no pre-session cookie', { ...browser, cookie: '' }, value],
  ] as const) {
    const reply = await post('/sign-in/workspace', form, [['choice', chosen]])
    assert.equal(reply.status, 403, what)
    assert.match(reply.body, /<h1>Form expired<\/h1>/, what)
  }
  const cross = await post('/sign-in/workspace', browser, [['choice', value]], {
    origin: 'https://evil.example',
  })
  assert.equal(cross.status, 403)
  t.clock.advance(10 * 60 * 1000)
  const late = await post('/sign-in/workspace', browser, [['choice', value]])
  assert.equal(late.status, 403, 'ten minutes later')
  const { rate_limit_windows: _a, ...unchanged } = before
  const { rate_limit_windows: _b, ...now } = await state()
  assert.deepEqual(now, unchanged)
})

test('signing out ends the session and clears its cookie', async () => {
  const bob = await signIn(t, { workspaceId: ws.workspace_id, personId: ws.ids.bob as string })
  const reply = await bob.submit('/sign-out')
  assert.equal(reply.status, 303)
  assert.equal(reply.headers.location, '/sign-in')
  assert.equal(reply.headers['cache-control'], 'no-store')
  assert.match(
    String(setCookie(reply, 'workgraph_session')),
    /^workgraph_session=; .*Expires=Thu, 01 Jan 1970/,
  )
  const ended = (await sessionsOf(ws.ids.bob as string)).filter((row) => row.ended_at !== null)
  assert.ok(ended.some((row) => row.ended_at?.getTime() === t.clock.now().getTime()))
  const after = await bob.get('/')
  assert.equal(after.status, 303, 'the old cookie no longer opens a page')
  assert.equal(after.headers.location, '/sign-in')
})

test('a cross-site or tokenless sign-out is a 403 and the session lives', async () => {
  const bob = await signIn(t, { workspaceId: ws.workspace_id, personId: ws.ids.bob as string })
  const before = await state()
  for (const [what, fields, headers] of [
    ['another origin', [['csrf', bob.csrf]], { origin: 'https://evil.example' }],
    ['a cross-site fetch', [['csrf', bob.csrf]], { 'sec-fetch-site': 'cross-site' }],
    ['no token', [], { origin: ORIGIN }],
  ] as [string, Fields, Record<string, string>][]) {
    const reply = await bob.post('/sign-out', fields, headers)
    assert.equal(reply.status, 403, what)
    assert.match(reply.body, /<h1>Form expired<\/h1>/, what)
    assert.equal(setCookie(reply, 'workgraph_session'), undefined, what)
  }
  // Every request counts against a rate budget; nothing else may change.
  const { rate_limit_windows: _a, ...unchanged } = before
  const { rate_limit_windows: _b, ...now } = await state()
  assert.deepEqual(now, unchanged)
  assert.equal((await bob.get('/')).status, 200)
  // Signed out already, a sign-out just leads to the sign-in page.
  const anonymous = await client(t.app).post('/sign-out', '', FORM)
  assert.equal(anonymous.status, 303)
  assert.equal(anonymous.headers.location, '/sign-in')
  // The requests spent rate budgets (their windows turn over at each minute); nothing else moved.
  const { rate_limit_windows: _c, ...last } = await state()
  assert.deepEqual(last, unchanged)
})

test('too many attempts in a minute: 429 and Retry-After, right password or not', async () => {
  const limited = await startTestApp({
    env: { PUBLIC_URL: ORIGIN, OAUTH_SIGN_INS_PER_MINUTE: '3' },
  })
  try {
    const bundle = smallBundle()
    for (const person of bundle.people) person.password = PASSWORD
    const small = await importOk(limited.db.db, bundle)
    const browser = await signInForm(limited)
    const attempt = (password: string) =>
      post(
        '/sign-in',
        browser,
        [
          ['email', 'bob@example.test'],
          ['password', password],
        ],
        {},
        limited,
      )
    for (let i = 0; i < 3; i++) assert.equal((await attempt('wrong')).status, 401)
    const refused = await attempt(PASSWORD)
    assert.equal(refused.status, 429)
    assert.equal(refused.headers['retry-after'], '60')
    assert.equal(
      /<p class="error" role="alert">([^<]*)<\/p>/.exec(refused.body)?.[1],
      'Too many sign-in attempts. Wait a minute and try again.',
    )
    assert.equal(setCookie(refused, 'workgraph_session'), undefined)
    const sessions = await limited.db.db
      .selectFrom('web_sessions')
      .select('person_id')
      .where('person_id', '=', small.ids.bob as string)
      .execute()
    assert.deepEqual(sessions, [])
    // The next minute has a new budget.
    limited.clock.advance(60_000)
    assert.equal((await attempt(PASSWORD)).status, 303)
  } finally {
    await limited.close()
  }
})
