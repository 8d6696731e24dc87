import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { startSession } from '../../src/web/web-session.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'

// A `return_to` the Location header cannot carry as it is (characters beyond Latin-1, or any
// non-ASCII) must neither break sign-in nor write anything before the redirect is known to work.

const ORIGIN = 'http://127.0.0.1:8080'
const PASSWORD = 'a long test passphrase'
const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN }
// Above U+00FF (Node refuses them in a header), Latin-1 (sent as raw bytes), and an emoji.
const TARGETS = ['/ā', '/€?q=€#€', '/é', '/project/😀', '/\u0100/x']

let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp({ env: { PUBLIC_URL: ORIGIN, OAUTH_SIGN_INS_PER_MINUTE: '100000' } })
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  ws = await importOk(t.db.db, bundle)
})
after(() => t.close())

const cookieOf = (setCookie: string | string[] | undefined, name: string) =>
  [setCookie ?? []]
    .flat()
    .find((line) => line.startsWith(`${name}=`))
    ?.split(';')[0]

/** The sign-in form of a browser that already has a session: its cookies and CSRF token. */
async function signInForm(previous: string) {
  const page = await t.app.inject({ method: 'GET', url: '/sign-in' })
  const preSession = cookieOf(page.headers['set-cookie'], 'workgraph_sign_in') as string
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] as string
  return { cookie: `${preSession}; workgraph_session=${previous}`, csrf }
}

const sessions = async () =>
  t.db.db.selectFrom('web_sessions').select(['id_hash', 'ended_at']).execute()

function assertSafeLocation(location: unknown, what: string) {
  assert.equal(typeof location, 'string', what)
  assert.match(location as string, /^\/[\x21-\x7e]*$/, `${what}: ASCII only, a local path`)
  assert.equal(new URL(location as string, ORIGIN).origin, ORIGIN, what)
}

test('a return_to with characters a header cannot carry still signs in, to an encoded path', async () => {
  for (const target of TARGETS) {
    const previous = await startSession(t.db.db, {
      workspaceId: ws.workspace_id,
      personId: ws.ids.alice as string,
      now: t.clock.now(),
    })
    const { cookie, csrf } = await signInForm(previous)
    const before = await sessions()
    const reply = await t.app.inject({
      method: 'POST',
      url: '/sign-in',
      headers: { ...FORM, cookie },
      payload: new URLSearchParams({
        csrf,
        email: 'alice@example.test',
        password: PASSWORD,
        return_to: target,
      }).toString(),
    })
    // Whatever the answer, a sign-in that does not redirect must not have written anything.
    if (reply.statusCode !== 303)
      assert.deepEqual(await sessions(), before, `${target}: ${reply.statusCode}, yet written`)
    assert.equal(reply.statusCode, 303, `${target}: ${reply.body.slice(0, 200)}`)
    assertSafeLocation(reply.headers.location, target)
    const landed = decodeURIComponent(new URL(reply.headers.location as string, ORIGIN).pathname)
    assert.ok(landed === '/' || target.startsWith(landed), `${target} → ${landed}`)
    const after = await sessions()
    assert.equal(after.length, before.length + 1, `${target}: one new session`)
    assert.equal(
      after.filter((row) => row.ended_at === null).length,
      before.filter((row) => row.ended_at === null).length,
      `${target}: the previous one ended`,
    )
  }
})

test('a signed-in visitor sent to /sign-in with such a return_to is redirected, not a 500', async () => {
  const value = await startSession(t.db.db, {
    workspaceId: ws.workspace_id,
    personId: ws.ids.alice as string,
    now: t.clock.now(),
  })
  for (const target of TARGETS) {
    const reply = await t.app.inject({
      method: 'GET',
      url: `/sign-in?return_to=${encodeURIComponent(target)}`,
      headers: { cookie: `workgraph_session=${value}` },
    })
    assert.equal(reply.statusCode, 303, target)
    assertSafeLocation(reply.headers.location, target)
  }
})
