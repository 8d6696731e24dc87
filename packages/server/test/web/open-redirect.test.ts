import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { safeReturnTo } from '../../src/web/return-to.ts'
import { startSession } from '../../src/web/web-session.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'

// A `return_to` is where sign-in sends a browser next. Whatever it says, the Location the
// service answers must lead to a page of this origin, as a browser reads it: dot segments that
// climb to a path starting with `//` (`/..//evil.example`) would otherwise become a
// protocol-relative address of another host.

const ORIGIN = 'http://127.0.0.1:8080'
const PASSWORD = 'a long test passphrase'
const ESCAPES = [
  '/..//evil.example',
  '/./..//evil.example/x',
  '/a/../..//evil.example',
  '/.%2e//evil.example',
  '/%2e%2e//evil.example',
  '/a/%2E%2E/%2e%2e//evil.example/x?y#z',
  '/.//evil.example',
  '/..///evil.example',
  '//evil.example',
  '/\\evil.example',
  'https://evil.example/',
]

let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp({ env: { PUBLIC_URL: ORIGIN, OAUTH_SIGN_INS_PER_MINUTE: '100000' } })
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  ws = await importOk(t.db.db, bundle)
})
after(() => t.close())

/** Where a browser on this origin goes when it follows `location`. */
function followed(location: unknown): URL {
  assert.equal(typeof location, 'string')
  return new URL(location as string, `${ORIGIN}/sign-in`)
}

const cookieOf = (setCookie: string | string[] | undefined, name: string) =>
  [setCookie ?? []]
    .flat()
    .find((line) => line.startsWith(`${name}=`))
    ?.split(';')[0]

test('a signed-in visitor sent to /sign-in with a climbing return_to stays on this origin', async () => {
  const value = await startSession(t.db.db, {
    workspaceId: ws.workspace_id,
    personId: ws.ids.alice as string,
    now: t.clock.now(),
  })
  for (const target of ESCAPES) {
    const reply = await t.app.inject({
      method: 'GET',
      url: `/sign-in?return_to=${encodeURIComponent(target)}`,
      headers: { cookie: `workgraph_session=${value}` },
    })
    assert.equal(reply.statusCode, 303, target)
    assert.equal(
      followed(reply.headers.location).origin,
      ORIGIN,
      `${target} → ${reply.headers.location}`,
    )
  }
})

test('signing in with a climbing return_to lands on this origin', async () => {
  for (const target of ESCAPES) {
    const page = await t.app.inject({ method: 'GET', url: '/sign-in' })
    const preSession = cookieOf(page.headers['set-cookie'], 'workgraph_sign_in') as string
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] as string
    const reply = await t.app.inject({
      method: 'POST',
      url: '/sign-in',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: ORIGIN,
        cookie: preSession,
      },
      payload: new URLSearchParams({
        csrf,
        email: 'alice@example.test',
        password: PASSWORD,
        return_to: target,
      }).toString(),
    })
    assert.equal(reply.statusCode, 303, `${target}: ${reply.body.slice(0, 200)}`)
    assert.equal(
      followed(reply.headers.location).origin,
      ORIGIN,
      `${target} → ${reply.headers.location}`,
    )
  }
})

test('the sign-in form never carries a return_to that leaves this origin', async () => {
  for (const target of ESCAPES) {
    const page = await t.app.inject({
      method: 'GET',
      url: `/sign-in?return_to=${encodeURIComponent(target)}`,
    })
    const hidden = /name="return_to" value="([^"]*)"/.exec(page.body)?.[1] ?? '/'
    const value = hidden.replace(/&#x2F;|&#47;/g, '/').replace(/&amp;/g, '&')
    assert.equal(followed(value).origin, ORIGIN, `${target} → ${value}`)
  }
})

// Paths made of the pieces that confuse parsers: slashes, dots, their percent-encodings,
// backslashes, a host name, queries and fragments.
const PIECES = [
  '/',
  '/',
  '.',
  '..',
  '%2e',
  '%2E',
  '%2f',
  '\\',
  'evil.example',
  'a',
  '?',
  '#',
  '@',
  ':',
]
const climbing = fc
  .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 10 })
  .map((parts) => `/${parts.join('')}`)

test('whatever the value, the target safeReturnTo gives resolves to this origin and to itself', () => {
  fc.assert(
    fc.property(climbing, (value) => {
      const target = safeReturnTo(value)
      for (const base of [`${ORIGIN}/`, `${ORIGIN}/sign-in`, 'https://other.test/a/b']) {
        const url = new URL(target, base)
        assert.equal(url.origin, new URL(base).origin, `${value} → ${target}`)
        // Read again, it is the same address: a browser and this server agree on where it goes.
        assert.equal(`${url.pathname}${url.search}${url.hash}`, target, `${value} → ${target}`)
      }
    }),
    { numRuns: 5000 },
  )
})
