import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { issuePasswordLink } from '../../../src/setup/password-links.ts'
import { issueSetupToken } from '../../../src/setup/setup-tokens.ts'
import {
  type ListeningApp,
  launchChromium,
  newContext,
  seriousViolations,
  sessionCookie,
  signIn,
  startListeningApp,
  withAxe,
} from '../../harness/browser-app.ts'

// The first run in Debian's chromium, as an operator does it: the link the server printed, the
// form, the key shown once, the dashboard signed in; then the page is gone. The CSP stays
// enforced (axe is loaded through the browser's own channel), at a phone's width and a desktop's.

const PASSWORD = 'a long passphrase for ada'
let t: ListeningApp
let browser: Browser

before(async () => {
  t = await startListeningApp()
  browser = await launchChromium()
})
after(async () => {
  await browser?.close()
  await t?.close()
})

/** The page fits 390 and 1280 px without sideways scrolling and has no serious axe violation. */
async function check(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 })
    const overflow = await page.evaluate(() => {
      // biome-ignore lint/suspicious/noExplicitAny: the page's own globals
      const { document, innerWidth } = globalThis as any
      return document.documentElement.scrollWidth - innerWidth
    })
    assert.ok(overflow <= 0, `${name} scrolls sideways by ${overflow}px at ${width}px`)
    assert.deepEqual(await seriousViolations(page), [], `${name} at ${width}px`)
    assert.equal(await page.locator('h1').count(), 1, `${name} has one h1`)
  }
}

test('the first-run page makes the workspace, signs its owner in and shows the key once', async () => {
  const token = await issueSetupToken(t.db.db, t.clock.now())
  const context = await withAxe(await newContext(browser))
  const page = await context.newPage()
  const errors: string[] = []
  // A CSP violation or a script error is logged as an error; a missing favicon is not one.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('response', (answer) => {
    const path = new URL(answer.url()).pathname
    if (answer.status() >= 400 && path !== '/favicon.ico' && path !== '/setup')
      errors.push(`${answer.status()} ${path}`)
  })

  await page.goto(`${t.origin}/setup?token=${token}`)
  assert.equal(await page.locator('h1').textContent(), 'Start your workspace')
  await check(page, 'setup')

  // The browser's own checks stop a short password before anything is sent.
  await page.getByLabel('Workspace name').fill('Acme')
  await page.getByLabel('Your name').fill('Ada Okafor')
  await page.getByLabel('Email').fill('ada@acme.test')
  await page.getByLabel(/^Password/).fill('short')
  await page.getByRole('button', { name: 'Create workspace' }).click()
  assert.equal(new URL(page.url()).pathname, '/setup')
  assert.equal(await page.locator('h1').textContent(), 'Start your workspace')
  assert.equal((await t.db.db.selectFrom('workspaces').select('id').execute()).length, 0)

  await page.getByLabel(/^Password/).fill(PASSWORD)
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/setup') && r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Create workspace' }).click(),
  ])
  assert.equal(response.status(), 201)
  await page.waitForLoadState('load')
  assert.equal(await page.locator('h1').textContent(), 'Your workspace is ready')
  const key = (await page.locator('#secret').textContent()) ?? ''
  assert.match(key, /^wg_key_\w+$/)
  assert.ok(await sessionCookie(context), 'signed in')
  await check(page, 'setup-done')
  const me = await fetch(`${t.origin}/v1/me`, { headers: { authorization: `Bearer ${key}` } })
  assert.equal(me.status, 200)

  // The dashboard opens signed in, the key is on the API keys page (by its last four only).
  await page.getByRole('link', { name: 'Open the dashboard' }).click()
  await page.waitForURL(`${t.origin}/`)
  assert.equal(await page.locator('h1').textContent(), 'Acme')
  await page.goto(`${t.origin}/settings/api-keys`)
  assert.match((await page.locator('main').textContent()) ?? '', new RegExp(`…${key.slice(-4)}`))
  assert.doesNotMatch((await page.content()) ?? '', new RegExp(key))

  assert.deepEqual(errors, [], 'no CSP violation or script error')

  // The link the server printed is gone, for the owner as for anyone.
  const gone = await page.goto(`${t.origin}/setup?token=${token}`)
  assert.equal(gone?.status(), 404)
  assert.equal(await page.locator('h1').textContent(), 'Page not found')
  await context.close()
})

test('a password link opens its form once; the person is signed in with what they chose', async () => {
  const owner = await t.db.db
    .selectFrom('people')
    .select(['workspace_id', 'id'])
    .executeTakeFirstOrThrow()
  const link = await t.db.db.transaction().execute((trx) =>
    issuePasswordLink(trx, {
      workspaceId: owner.workspace_id,
      personId: owner.id,
      now: t.clock.now(),
    }),
  )
  const context = await withAxe(await newContext(browser))
  const page = await context.newPage()
  await page.goto(`${t.origin}/set-password/${link}`)
  assert.equal(await page.locator('h1').textContent(), 'Choose your password')
  await check(page, 'set-password')
  await page.getByLabel(/^New password/).fill('a new passphrase for ada')
  await Promise.all([
    page.waitForURL(`${t.origin}/`),
    page.getByRole('button', { name: 'Set password and sign in' }).click(),
  ])
  assert.equal(await page.locator('h1').textContent(), 'Acme')
  const again = await page.goto(`${t.origin}/set-password/${link}`)
  assert.equal(again?.status(), 410)
  await check(page, 'password-link-gone')

  // The new password is the one that signs in.
  const other = await (await newContext(browser)).newPage()
  await other.goto(`${t.origin}/sign-in`)
  await signIn(other, 'ada@acme.test', 'a new passphrase for ada')
  assert.equal(new URL(other.url()).pathname, '/')
  await context.close()
})
