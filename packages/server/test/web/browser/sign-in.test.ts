import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Browser } from 'playwright-core'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import {
  type ListeningApp,
  launchChromium,
  newContext,
  sessionCookie,
  signIn,
  startListeningApp,
} from '../../harness/browser-app.ts'
import { importOk, smallBundle } from '../../harness/bundles.ts'

// The dashboard's sign-in, sessions and guards, driven in Debian's chromium against the real app.

const PASSWORD = 'a long test passphrase'
let t: ListeningApp
let browser: Browser
let ws: ImportResult

before(async () => {
  t = await startListeningApp()
  const bundle = smallBundle()
  bundle.people = bundle.people.map((person) => ({ ...person, password: PASSWORD }))
  ws = await importOk(t.db.db, bundle)
  browser = await launchChromium()
})
after(async () => {
  await browser?.close()
  await t?.close()
})

const wsId = () => ws.workspace_id
const path = (type: string, key: string) => `/${wsId()}/${type}/${ws.ids[key]}`
const liveSessions = async () =>
  (
    await t.db.db
      .selectFrom('web_sessions')
      .select('id_hash')
      .where('ended_at', 'is', null)
      .execute()
  ).length

test('a signed-out visitor is sent to sign in, and comes back to the page asked for', async () => {
  const context = await newContext(browser)
  const page = await context.newPage()
  await page.goto(`${t.origin}${path('project', 'open')}`)
  assert.equal(new URL(page.url()).pathname, '/sign-in')
  assert.equal(new URL(page.url()).searchParams.get('return_to'), path('project', 'open'))
  await signIn(page, 'alice@example.test', PASSWORD)
  assert.equal(new URL(page.url()).pathname, path('project', 'open'))
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Open project')
  await context.close()
})

test('sign in and out: the session row ends and the next page load is signed out', async () => {
  const context = await newContext(browser)
  const page = await context.newPage()
  await page.goto(`${t.origin}/sign-in`)
  const planted = await sessionCookie(context)
  assert.equal(planted, undefined)
  await signIn(page, 'bob@example.test', PASSWORD)
  assert.equal(new URL(page.url()).pathname, '/')
  const value = await sessionCookie(context)
  assert.ok(value)
  const [cookie] = (await context.cookies()).filter((c) => c.name === 'workgraph_session')
  assert.equal(cookie?.httpOnly, true)
  assert.equal(cookie?.sameSite, 'Lax')
  assert.equal(cookie?.path, '/')
  // Only the hash is stored.
  const rows = await t.db.db.selectFrom('web_sessions').select('id_hash').execute()
  assert.ok(rows.every((row) => !row.id_hash.toString('utf8').includes(value as string)))
  const before = await liveSessions()
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL(/\/sign-in$/)
  assert.equal(await liveSessions(), before - 1)
  // The old value no longer opens anything, even replayed by hand.
  const replay = await fetch(`${t.origin}/`, {
    headers: { cookie: `workgraph_session=${value}` },
    redirect: 'manual',
  })
  assert.equal(replay.status, 303)
  await context.close()
})

test('a session ended on the server signs the browser out at its next page load', async () => {
  const context = await newContext(browser)
  const page = await context.newPage()
  await page.goto(`${t.origin}/`)
  await signIn(page, 'adam@example.test', PASSWORD)
  assert.equal(new URL(page.url()).pathname, '/')
  await t.db.db
    .updateTable('web_sessions')
    .set({ ended_at: new Date() })
    .where('person_id', '=', ws.ids.adam as string)
    .execute()
  await page.goto(`${t.origin}${path('task', 't-open')}`)
  assert.equal(new URL(page.url()).pathname, '/sign-in')
  await context.close()
})

test('a forged or missing CSRF token is refused with a 403 page and changes nothing', async () => {
  const context = await newContext(browser)
  const page = await context.newPage()
  await page.goto(`${t.origin}/`)
  await signIn(page, 'alice@example.test', PASSWORD)
  const before = await liveSessions()
  // The page's own sign-out form, tampered with: a forged token, then none at all.
  for (const csrf of ['forged-token', null]) {
    await page.goto(`${t.origin}/`)
    await page.locator('form[action="/sign-out"] input[name=csrf]').evaluate((input, token) => {
      if (token === null) input.remove()
      else input.setAttribute('value', token)
    }, csrf)
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/sign-out')),
      page.getByRole('button', { name: 'Sign out' }).click(),
    ])
    assert.equal(response.status(), 403)
    assert.equal(response.headers()['content-type'], 'text/html; charset=utf-8')
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Form expired')
  }
  assert.equal(await liveSessions(), before)
  // Another site's form, even with the right token, is refused by its Origin.
  const token = await page.locator('form[action="/sign-out"] input[name=csrf]').inputValue()
  const cookie = `workgraph_session=${await sessionCookie(context)}`
  const foreign = await fetch(`${t.origin}/sign-out`, {
    method: 'POST',
    headers: {
      cookie,
      origin: 'https://evil.example',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ csrf: token }),
    redirect: 'manual',
  })
  assert.equal(foreign.status, 403)
  assert.equal(await liveSessions(), before)
  // The sign-in form without its pre-session cookie's token: refused, no session made.
  const forgedSignIn = await fetch(`${t.origin}/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: 'bob@example.test', password: PASSWORD, csrf: 'x' }),
    redirect: 'manual',
  })
  assert.equal(forgedSignIn.status, 403)
  assert.equal(await liveSessions(), before)
  await context.close()
})

test('a hidden id, an unknown id and another workspace path give the same 404 page', async () => {
  const context = await newContext(browser)
  const page = await context.newPage()
  await page.goto(`${t.origin}/`)
  await signIn(page, 'bob@example.test', PASSWORD) // not in the secret project
  const visible = await page.goto(`${t.origin}${path('project', 'open')}`)
  assert.equal(visible?.status(), 200)
  const bodies: string[] = []
  const hiddenId = ws.ids.secret as string
  const unknownId = `prj_${'a'.repeat(hiddenId.length - 4)}`
  for (const url of [
    path('project', 'secret'),
    `/${wsId()}/project/${unknownId}`,
    `/wsp_${'b'.repeat(wsId().length - 4)}/project/${ws.ids.open}`,
    `/${wsId()}/task/${hiddenId}`,
    `/${wsId()}/project/not-an-id`,
  ]) {
    const response = await page.goto(`${t.origin}${url}`)
    assert.equal(response?.status(), 404, url)
    bodies.push(await (response as NonNullable<typeof response>).text())
  }
  assert.equal(new Set(bodies).size, 1, 'every 404 page is byte-identical')
  assert.ok(!(bodies[0] as string).includes('Secret'))
  await context.close()
})

test('pages carry the CSP and anti-framing headers and no inline script or style', async () => {
  const context = await newContext(browser)
  const page = await context.newPage()
  await page.goto(`${t.origin}/`)
  await signIn(page, 'alice@example.test', PASSWORD)
  for (const url of ['/sign-in', '/', path('project', 'secret'), path('task', 't-secret')]) {
    const response = await page.goto(`${t.origin}${url}`)
    const headers = (response as NonNullable<typeof response>).headers()
    assert.match(headers['content-security-policy'] ?? '', /script-src 'self'/)
    assert.match(headers['content-security-policy'] ?? '', /frame-ancestors 'none'/)
    assert.doesNotMatch(headers['content-security-policy'] ?? '', /unsafe-inline/)
    assert.equal(headers['x-frame-options'], 'DENY')
    assert.equal(headers['x-content-type-options'], 'nosniff')
    assert.equal(headers['referrer-policy'], 'same-origin')
    assert.equal(headers['cache-control'], 'no-store')
    const html = await page.content()
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, url)
    assert.doesNotMatch(html, /\sstyle=/, url)
  }
  await context.close()
})

test('return_to only ever leads to a path on this origin', async () => {
  for (const evil of [
    'https://evil.example/',
    '//evil.example/x',
    '/\\evil.example',
    '/%5C%5Cevil.example',
    'javascript:alert(1)',
    '/\t/evil.example',
    // Dot segments that climb to a path starting with `//`, a host to the browser.
    '/..//evil.example',
    '/./..//evil.example/x',
    '/a/../..//evil.example',
    '/.%2e//evil.example',
  ]) {
    const context = await newContext(browser)
    const page = await context.newPage()
    await page.goto(`${t.origin}/sign-in?return_to=${encodeURIComponent(evil)}`)
    await signIn(page, 'alice@example.test', PASSWORD)
    assert.equal(new URL(page.url()).origin, t.origin, evil)
    // Signed in already, the sign-in page sends the browser straight on: to this origin too.
    await page.goto(`${t.origin}/sign-in?return_to=${encodeURIComponent(evil)}`)
    assert.equal(new URL(page.url()).origin, t.origin, `${evil}, signed in`)
    await context.close()
  }
})

test('signing in again starts a new session: a planted session id is never promoted', async () => {
  const context = await newContext(browser)
  const planted = 'A'.repeat(43)
  await context.addCookies([{ name: 'workgraph_session', value: planted, url: t.origin }])
  const page = await context.newPage()
  await page.goto(`${t.origin}/`)
  await signIn(page, 'alice@example.test', PASSWORD)
  const value = await sessionCookie(context)
  assert.equal(new URL(page.url()).pathname, '/')
  assert.ok(value && value !== planted)
  await context.close()
})
