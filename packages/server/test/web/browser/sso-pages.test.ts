import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { after, before, test } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import {
  type IdentityProvider,
  startIdentityProvider,
} from '../../../../../examples/identity-provider/identity-provider.ts'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { createOAuthClient } from '../../../src/oauth/oauth-clients.ts'
import {
  allViolations,
  type ListeningApp,
  launchChromium,
  newContext,
  sessionCookie,
  startListeningApp,
  withAxe,
} from '../../harness/browser-app.ts'
import { importOk, smallBundle } from '../../harness/bundles.ts'
import { authorizationUrl, exchangeCode, pkcePair } from '../../harness/oauth-client-requests.ts'
import { type Receiver, reply, startReceiver } from '../../harness/receiver.ts'
import { signIn as sessionOf } from '../../harness/web-visitor.ts'

// Single sign-on through the pages in Debian's chromium, with the CSP enforced, against a second
// oidc-provider whose sign-in page picks an account: the dashboard's sign-in (and back to the page
// asked for), the choice of workspace, the page of an identity nobody invited, an app's sign-in
// that resumes to consent and a code, the sign-in page with passwords off, and the owner's domain
// form. Every page passes axe (no violation of any impact) at a phone's width and a desktop's,
// and fits the phone's. WORKGRAPH_SSO_SHOTS=<folder> saves both widths there;
// WORKGRAPH_SCREENSHOTS=1 saves the desktop screenshots docs/dashboard.md shows.

const WIDTHS = [390, 1280]
// The pages docs/dashboard.md shows.
const IN_DOCS = ['sso-sign-in', 'sso-no-workspace']
const SHOTS_ENV = process.env.WORKGRAPH_SCREENSHOTS
const SHOTS =
  process.env.WORKGRAPH_SSO_SHOTS ??
  (SHOTS_ENV === '1' ? resolve(import.meta.dirname, '../../../../../docs/dashboard') : undefined)
let idp: IdentityProvider
let t: ListeningApp
let off: ListeningApp
let browser: Browser
let ws: ImportResult
let app: Receiver
let clientId: string

before(async () => {
  // The email in the ID token itself: the HTTP tests take it from the userinfo endpoint.
  idp = await startIdentityProvider({ emailInIdToken: true })
  t = await startListeningApp(idp.env())
  off = await startListeningApp(idp.env({ PASSWORD_SIGN_IN: 'false' }))
  idp.register(`${t.origin}/sign-in/sso/callback`)
  ws = await importOk(t.db.db, smallBundle())
  await importOk(off.db.db, smallBundle())
  // Alice is also the owner of a second workspace: her identity opens both.
  await importOk(t.db.db, {
    format: 'workgraph.bundle/v1',
    workspace: { key: 'z', name: 'Zeta corp' },
    people: [{ key: 'alice', name: 'Alice Z', email: 'alice@example.test', role: 'owner' }],
  })
  idp.accounts.set('alice', { sub: 'alice', email: 'alice@example.test', email_verified: true })
  idp.accounts.set('bob', { sub: 'bob', email: 'bob@example.test', email_verified: true })
  idp.accounts.set('stranger', { sub: 'stranger', email: 'sam@else.test', email_verified: true })
  app = await startReceiver('/callback')
  app.fallback = reply(200, { 'content-type': 'text/html' }, '<!doctype html><title>App</title>')
  const client = await createOAuthClient(t.db.db, {
    name: 'Planner app',
    redirectUris: [app.url],
    public: true,
    workspaceId: null,
  })
  clientId = client.client_id
  browser = await launchChromium()
  if (SHOTS) mkdirSync(SHOTS, { recursive: true })
})
after(async () => {
  await browser?.close()
  await app?.close()
  await off?.close()
  await t?.close()
  await idp?.close()
})

/**
 * The page as a person sees it, at a phone's width and a desktop's: no axe violation, one h1 and
 * one main, nothing wider than the screen, the dashboard's stylesheet applied.
 */
async function checkPage(page: Page, name: string) {
  await page.waitForLoadState('load')
  // Before any screenshot: a full-page one leaves style attributes of its own in the document.
  const markup = await page.content()
  assert.doesNotMatch(markup, /<script(?![^>]*\bsrc=)[^>]*>/, `${name}: no inline script`)
  assert.doesNotMatch(markup, /\sstyle=/, `${name}: no inline style`)
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 })
    assert.deepEqual(await allViolations(page), [], `${name} at ${width}px: ${page.url()}`)
    assert.equal(await page.locator('h1').count(), 1, `${name} has one h1`)
    assert.equal(await page.locator('main').count(), 1, `${name} has one main`)
    const overflow = await page.evaluate(() => {
      // biome-ignore lint/suspicious/noExplicitAny: the page's own globals
      const { document } = globalThis as any
      return document.documentElement.scrollWidth - document.documentElement.clientWidth
    })
    assert.equal(overflow, 0, `${name} fits ${width}px`)
    if (SHOTS && (SHOTS_ENV !== '1' || (width === 1280 && IN_DOCS.includes(name)))) {
      const file = SHOTS_ENV === '1' ? `${name}.png` : `${name}-${width}.png`
      await page.screenshot({ path: join(SHOTS, file), fullPage: true })
    }
  }
  await page.setViewportSize({ width: 1024, height: 700 })
}

/** At the provider's page: picks the account and continues, and waits to be back. */
async function atProvider(page: Page, account: string, origin = t.origin) {
  await page.waitForURL((url) => url.origin === idp.issuer)
  await page.getByLabel('Account').selectOption(account)
  await Promise.all([
    page.waitForURL((url) => url.origin === origin),
    page.getByRole('button', { name: 'Continue' }).click(),
  ])
  await page.waitForLoadState('load')
}

async function submit(page: Page, button: string) {
  await Promise.all([
    page.waitForNavigation(),
    page.getByRole('button', { name: button, exact: true }).click(),
  ])
}

async function freshContext(): Promise<BrowserContext> {
  // The CSP is enforced: what it blocked would never reach the provider or come back.
  return withAxe(await newContext(browser))
}

test('sign in with the provider on the dashboard, and come back to the page asked for', async () => {
  const context = await freshContext()
  const page = await context.newPage()
  await page.goto(`${t.origin}/teams`)
  assert.equal(new URL(page.url()).pathname, '/sign-in')
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Sign in')
  await checkPage(page, 'sso-sign-in')
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click()
  await atProvider(page, 'bob')
  assert.equal(new URL(page.url()).pathname, '/teams')
  assert.ok(await sessionCookie(context))
  assert.match((await page.locator('header').textContent()) ?? '', /Bob Member/)
  // The flow's cookie went with the sign-in; nothing of it stays in the browser.
  const names = (await context.cookies()).map((cookie) => cookie.name)
  assert.ok(!names.includes('workgraph_sso'), names.join())
  await context.close()
})

test('an identity of two workspaces chooses one', async () => {
  const context = await freshContext()
  const page = await context.newPage()
  await page.goto(`${t.origin}/sign-in`)
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click()
  await atProvider(page, 'alice')
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Choose a workspace')
  await checkPage(page, 'sso-workspace')
  await page.getByLabel('Zeta corp (owner)').check()
  await submit(page, 'Continue')
  assert.equal(new URL(page.url()).pathname, '/')
  assert.match((await page.locator('header').textContent()) ?? '', /Zeta corp/)
  await context.close()
})

test('an identity nobody invited gets a page that names no workspace', async () => {
  const context = await freshContext()
  const page = await context.newPage()
  await page.goto(`${t.origin}/sign-in`)
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click()
  await atProvider(page, 'stranger')
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'No workspace to open')
  await checkPage(page, 'sso-no-workspace')
  const text = (await page.locator('main').textContent()) ?? ''
  assert.match(text, /sam@else\.test/)
  assert.doesNotMatch(text, /Test workspace|Zeta/)
  assert.equal(await sessionCookie(context), undefined)
  await context.close()
  // An unverified address at the provider (signed in there afresh): the page says why.
  const other = await freshContext()
  const again = await other.newPage()
  await again.goto(`${t.origin}/sign-in`)
  await again.getByRole('link', { name: 'Sign in with Test IdP' }).click()
  await atProvider(again, 'idp-unverified')
  assert.equal(
    await again.getByRole('heading', { level: 1 }).textContent(),
    'Sign-in did not complete',
  )
  await checkPage(again, 'sso-unverified')
  assert.equal(await sessionCookie(other), undefined)
  await other.close()
})

test("an app's sign-in goes through the provider and resumes to consent and a code", async () => {
  const context = await freshContext()
  const page = await context.newPage()
  const { verifier, challenge } = pkcePair()
  await page.goto(
    authorizationUrl(t.origin, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: app.url,
      scope: 'project:read',
      state: 'keep-me',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }),
  )
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Sign in')
  await checkPage(page, 'sso-oauth-sign-in')
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click()
  await atProvider(page, 'bob')
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Authorize access')
  assert.match((await page.locator('main').textContent()) ?? '', /Planner app[\s\S]*Bob Member/)
  await submit(page, 'Allow')
  await page.waitForURL((url) => url.href.startsWith(app.url))
  const answer = new URL(page.url()).searchParams
  assert.equal(answer.get('state'), 'keep-me')
  const tokens = await exchangeCode(t.origin, {
    clientId,
    redirectUri: app.url,
    code: answer.get('code') as string,
    verifier,
  })
  assert.equal(tokens.status, 200, JSON.stringify(tokens.json))
  await context.close()
})

test('with passwords off, the sign-in page offers the provider alone', async () => {
  const context = await freshContext()
  const page = await context.newPage()
  await page.goto(`${off.origin}/sign-in`)
  assert.equal(await page.getByLabel('Password').count(), 0)
  assert.equal(await page.getByRole('link', { name: 'Sign in with Test IdP' }).count(), 1)
  await checkPage(page, 'sso-only')
  await context.close()
})

test("the owner's People page sets the email domain that joins", async () => {
  const owner = await sessionOf(t, {
    workspaceId: ws.workspace_id,
    personId: ws.ids.olive as string,
  })
  const context = await freshContext()
  const [name, value] = owner.cookie.split('=') as [string, string]
  await context.addCookies([{ name, value, url: t.origin }])
  const page = await context.newPage()
  await page.goto(`${t.origin}/people`)
  await page.getByLabel(/^Email domain that joins/).fill('not a domain')
  await submit(page, 'Save domain')
  assert.match((await page.getByRole('alert').textContent()) ?? '', /Give a domain/)
  await checkPage(page, 'sso-people-domain-error')
  await page.getByLabel(/^Email domain that joins/).fill('example.test')
  await submit(page, 'Save domain')
  assert.match((await page.getByRole('status').textContent()) ?? '', /domain that joins was saved/)
  assert.match((await page.locator('main').textContent()) ?? '', /@example\.test/)
  await checkPage(page, 'sso-people-domain')
  await context.close()
})
