import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import { after, before, mock, test } from 'node:test'
import { createOAuthClient } from '../../src/oauth/oauth-clients.ts'
import { Browser, formOn, type Page } from '../harness/browser.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { authorizationUrl, pkcePair } from '../harness/oauth-client-requests.ts'
import { type ListeningTestApp, startListeningTestApp } from '../harness/oauth-flow.ts'

// Every sign-in attempt, on the dashboard and on the OAuth page, costs exactly one password hash
// computation, whatever the email: unknown, in one workspace, or in several. Counted, not timed.

const PASSWORD = 'correct horse battery staple'
const NATIVE_URI = 'http://127.0.0.1:9999/callback'

let t: ListeningTestApp
let clientId: string
before(async () => {
  t = await startListeningTestApp({ OAUTH_SIGN_INS_PER_MINUTE: '100000' })
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  await importOk(t.db.db, bundle)
  // A server-wide app, which people of every workspace may authorize.
  const app = await createOAuthClient(t.db.db, {
    name: 'Native app',
    redirectUris: [NATIVE_URI],
    public: true,
    workspaceId: null,
  })
  clientId = app.client_id
  // Alice is a person of two more workspaces, with the same email and password.
  for (const name of ['Second corp', 'Third corp']) {
    await importOk(t.db.db, {
      format: 'workgraph.bundle/v1',
      workspace: { key: 'w', name },
      people: [
        {
          key: 'alice',
          name: 'Alice',
          email: 'alice@example.test',
          role: 'member',
          password: PASSWORD,
        },
      ],
    })
  }
})
after(() => t.close())

/** The scrypt computations `attempt` runs. */
async function hashesDuring(attempt: () => Promise<Page>): Promise<{ count: number; page: Page }> {
  const scrypt = mock.method(crypto, 'scrypt')
  try {
    const page = await attempt()
    return { count: scrypt.mock.callCount(), page }
  } finally {
    scrypt.mock.restore()
  }
}

/** A browser on the dashboard's sign-in form, and how to submit it. */
async function dashboardForm() {
  const browser = new Browser(t.origin)
  const form = formOn((await browser.get('/sign-in')).body, '/sign-in')
  return (email: string, password: string) =>
    browser.post(form.action, { ...form.fields, email, password })
}

/** A browser on the OAuth sign-in page of a fresh authorization, and how to submit it. */
async function oauthForm() {
  const browser = new Browser(t.origin)
  let page = await browser.get(
    authorizationUrl(t.origin, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: NATIVE_URI,
      scope: 'project:read',
      state: 's',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    }),
  )
  while (page.location?.startsWith(t.origin)) page = await browser.get(page.location)
  const form = formOn(page.body, '/login')
  return (email: string, password: string) =>
    browser.post(form.action, { ...form.fields, email, password })
}

const ATTEMPTS: [string, string, string, number][] = [
  // what, email, password, the status of the answer (200: the choice of workspace)
  ['an unknown email', 'nobody@example.test', PASSWORD, 401],
  ['a wrong password, one workspace', 'bob@example.test', 'not the password', 401],
  ['the right password, one workspace', 'bob@example.test', PASSWORD, 303],
  ['a wrong password, three workspaces', 'alice@example.test', 'not the password', 401],
  ['the right password, three workspaces', 'alice@example.test', PASSWORD, 200],
  ['no password', 'alice@example.test', '', 401],
]

for (const [door, open] of [
  ['dashboard', dashboardForm],
  ['OAuth', oauthForm],
] as const) {
  test(`${door} sign-in: one hash computation per attempt, whatever the email`, async () => {
    for (const [what, email, password, status] of ATTEMPTS) {
      const submit = await open()
      const { count, page } = await hashesDuring(() => submit(email, password))
      assert.equal(count, 1, `${what}: ${count} hash computations`)
      assert.equal(page.status, status, what)
    }
  })
}
