import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { after, before, test } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { createOAuthClient } from '../../../src/oauth/oauth-clients.ts'
import {
  allViolations,
  type ListeningApp,
  launchChromium,
  newContext,
  startListeningApp,
  withAxe,
} from '../../harness/browser-app.ts'
import { importOk, smallBundle } from '../../harness/bundles.ts'
import { authorizationUrl, exchangeCode, pkcePair } from '../../harness/oauth-client-requests.ts'
import { type Receiver, reply, startReceiver } from '../../harness/receiver.ts'

// The OAuth authorization-code flow with PKCE through the real pages in Debian's chromium, as a
// person clicks it, with the CSP enforced: sign-in, the choice of workspace, consent with and
// without the project picker, deny, allow, and the app's exchange of the code. Every page passes
// axe (no violation of any impact) at a phone's width and a desktop's, and fits the phone's.
//
// WORKGRAPH_SCREENSHOTS=1 saves the desktop screenshots of docs/oauth.md; a folder as its value
// saves both widths there instead.

const PASSWORD = 'a long test passphrase'
const WIDTHS = [390, 1280]
// The pages docs/oauth.md shows.
const IN_DOCS = ['sign-in', 'workspace', 'consent', 'consent-projects']
const SHOTS_ENV = process.env.WORKGRAPH_SCREENSHOTS
const SHOTS =
  SHOTS_ENV === '1' ? resolve(import.meta.dirname, '../../../../../docs/dashboard') : SHOTS_ENV
let t: ListeningApp
let browser: Browser
let ws: ImportResult
let app: Receiver
let clientId: string

before(async () => {
  t = await startListeningApp()
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  ws = await importOk(t.db.db, bundle)
  // Alice is also a person of a second workspace: her sign-in offers the choice.
  await importOk(t.db.db, {
    format: 'workgraph.bundle/v1',
    workspace: { key: 'w2', name: 'Zeta corp' },
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
  // The app: a server-wide native app whose loopback redirect is this test's own server.
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
  await t?.close()
})

/** A new authorization request of the app, and the PKCE verifier it keeps. */
function newAuthorization(extra: Record<string, string> = {}) {
  const { verifier, challenge } = pkcePair()
  const url = authorizationUrl(t.origin, {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: app.url,
    scope: 'project:read workspace:read',
    state: 'keep-me',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  })
  return { url, verifier }
}

/**
 * The page as a person sees it, at a phone's width and a desktop's: no serious axe violation,
 * one h1 and one main, nothing wider than the screen, the dashboard's stylesheet applied.
 */
async function checkPage(page: Page, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 })
    assert.deepEqual(await allViolations(page), [], `${name} at ${width}px: ${page.url()}`)
    assert.equal(await page.locator('h1').count(), 1, `${name} has one h1`)
    assert.equal(await page.locator('main').count(), 1, `${name} has one main`)
    const layout = await page.evaluate(() => {
      // biome-ignore lint/suspicious/noExplicitAny: the page's own globals
      const { document, getComputedStyle } = globalThis as any
      return {
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        header: getComputedStyle(document.querySelector('.site-header')).borderBottomStyle,
      }
    })
    assert.equal(layout.overflow, 0, `${name} fits ${width}px`)
    assert.equal(layout.header, 'solid', `${name} has the dashboard's header and stylesheet`)
    const markup = await page.content()
    assert.doesNotMatch(markup, /<script(?![^>]*\bsrc=)[^>]*>/, `${name}: no inline script`)
    assert.doesNotMatch(markup, /\sstyle=/, `${name}: no inline style`)
    if (SHOTS && (SHOTS_ENV !== '1' || (width === 1280 && IN_DOCS.includes(name)))) {
      const file = SHOTS_ENV === '1' ? `oauth-${name}.png` : `oauth-${name}-${width}.png`
      await page.screenshot({ path: join(SHOTS, file), fullPage: true })
    }
  }
  await page.setViewportSize({ width: 1024, height: 700 })
}

/** Clicks a button that submits a form, and waits for where the browser lands. */
async function submit(page: Page, button: string) {
  await Promise.all([
    page.waitForNavigation(),
    page.getByRole('button', { name: button, exact: true }).click(),
  ])
}

/** The query of the app's callback, once the browser has arrived there. */
async function callback(page: Page): Promise<URLSearchParams> {
  await page.waitForURL((url) => url.href.startsWith(app.url))
  return new URL(page.url()).searchParams
}

/** Every form POST the pages send, with the headers Chromium gave it (the network's included). */
function postsOf(context: BrowserContext) {
  const posts: Promise<{ url: string; origin?: string; site?: string }>[] = []
  context.on('request', (request) => {
    if (request.method() !== 'POST') return
    posts.push(
      request.allHeaders().then((headers) => ({
        url: request.url(),
        ...(headers.origin !== undefined && { origin: headers.origin }),
        ...(headers['sec-fetch-site'] !== undefined && { site: headers['sec-fetch-site'] }),
      })),
    )
  })
  return posts
}

let context: BrowserContext

test('sign-in, then the choice of workspace, then consent; Deny sends access_denied to the app', async () => {
  // The CSP is enforced: a form whose redirects it blocked would never reach the app.
  context = await withAxe(await newContext(browser))
  const posts = postsOf(context)
  const page = await context.newPage()
  const response = await page.goto(newAuthorization().url)
  assert.match(new URL(page.url()).pathname, /^\/oauth\/interaction\/[^/]+$/)
  const headers = response?.headers() ?? {}
  assert.equal(headers['referrer-policy'], 'same-origin', 'a same-origin form keeps its Origin')
  assert.doesNotMatch(headers['content-security-policy'] ?? '', /unsafe-inline/)
  assert.match(headers['content-security-policy'] ?? '', /frame-ancestors 'none'/)
  assert.match(
    headers['content-security-policy'] ?? '',
    new RegExp(`form-action 'self' ${new URL(app.url).origin}(;|$)`),
  )
  assert.equal(headers['x-frame-options'], 'DENY')
  // The interaction's cookies, which the forms' token is bound to, never go with another site's form.
  const interactionCookies = (await context.cookies()).filter((c) =>
    c.name.startsWith('_interaction'),
  )
  assert.ok(interactionCookies.length > 0)
  for (const cookie of interactionCookies) {
    assert.equal(cookie.sameSite, 'Lax', cookie.name)
    assert.equal(cookie.httpOnly, true, cookie.name)
  }
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Sign in')
  await checkPage(page, 'sign-in')

  await page.getByLabel('Email').fill('alice@example.test')
  await page.getByLabel('Password').fill('not her password')
  await submit(page, 'Sign in')
  assert.match((await page.getByRole('alert').textContent()) ?? '', /do not match/)
  await checkPage(page, 'sign-in-error')

  await page.getByLabel('Password').fill(PASSWORD)
  await submit(page, 'Sign in')
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Choose a workspace')
  await checkPage(page, 'workspace')
  await page.getByLabel('Test workspace (member)').check()
  await submit(page, 'Continue')

  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Authorize access')
  assert.match((await page.locator('main').textContent()) ?? '', /Planner app[\s\S]*Test workspace/)
  assert.equal(await page.locator('input[name="project_ids"]').count(), 0, 'no picker asked for')
  await checkPage(page, 'consent')
  await submit(page, 'Deny')
  const denied = await callback(page)
  assert.equal(denied.get('error'), 'access_denied')
  assert.equal(denied.get('state'), 'keep-me')
  assert.equal(denied.get('iss'), t.origin)
  assert.equal(denied.get('code'), null)

  // What the origin check saw: each form posted with this origin, from the same site.
  assert.ok(posts.length >= 4)
  for (const post of await Promise.all(posts)) {
    assert.equal(post.origin, t.origin, post.url)
    assert.equal(post.site, 'same-origin', post.url)
  }
})

test('Allow sends the code to the app, and the code buys a token that works on /v1', async () => {
  const page = await context.newPage()
  const { url, verifier } = newAuthorization()
  await page.goto(url)
  // Signed in already at the authorization server; a native app's consent is asked every time.
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Authorize access')
  await submit(page, 'Allow')
  const answer = await callback(page)
  assert.equal(answer.get('state'), 'keep-me')
  const code = answer.get('code')
  assert.ok(code)
  const tokens = await exchangeCode(t.origin, { clientId, redirectUri: app.url, code, verifier })
  assert.equal(tokens.status, 200, JSON.stringify(tokens.json))
  const workspace = await fetch(`${t.origin}/v1/workspace`, {
    headers: { authorization: `Bearer ${tokens.json.access_token}` },
  })
  assert.equal(workspace.status, 200)
  assert.equal(((await workspace.json()) as { id: string }).id, ws.workspace_id)
})

test('with the project picker, the token opens only the projects ticked', async () => {
  const page = await context.newPage()
  const { url, verifier } = newAuthorization({ project_picker: '1' })
  await page.goto(url)
  assert.equal(await page.locator('input[name="project_ids"]').count(), 2)
  await checkPage(page, 'consent-projects')
  // Allow with nothing ticked: the page again, with why.
  await submit(page, 'Allow')
  assert.match((await page.getByRole('alert').textContent()) ?? '', /Pick at least one/)
  await page.getByLabel('Secret project').check()
  await submit(page, 'Allow')
  const code = (await callback(page)).get('code')
  assert.ok(code)
  const tokens = await exchangeCode(t.origin, { clientId, redirectUri: app.url, code, verifier })
  assert.equal(tokens.status, 200)
  const projects = await fetch(`${t.origin}/v1/projects`, {
    headers: { authorization: `Bearer ${tokens.json.access_token}` },
  })
  const ids = ((await projects.json()) as { data: { id: string }[] }).data.map((p) => p.id)
  assert.deepEqual(ids, [ws.ids.secret])
})

test('a form tampered with, and an expired interaction, get the pages of the dashboard; one can switch person', async () => {
  const page = await context.newPage()
  await page.goto(newAuthorization().url)
  await page.locator('form[action$="/confirm"] input[name=csrf]').evaluate((input) => {
    input.setAttribute('value', 'forged')
  })
  const [refused] = await Promise.all([
    page.waitForResponse((response) => response.url().endsWith('/confirm')),
    page.getByRole('button', { name: 'Allow', exact: true }).click(),
  ])
  assert.equal(refused.status(), 403)
  await page.waitForLoadState('load')
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Form expired')
  await checkPage(page, 'form-expired')

  const fresh = await withAxe(await newContext(browser))
  const elsewhere = await fresh.newPage()
  const expired = await elsewhere.goto(`${t.origin}/oauth/interaction/not-an-interaction`)
  assert.equal(expired?.status(), 400)
  assert.equal(
    await elsewhere.getByRole('heading', { level: 1 }).textContent(),
    'Something went wrong',
  )
  await checkPage(elsewhere, 'expired')
  await fresh.close()

  // "Sign in as someone else" on the consent page leads back to the sign-in form.
  const again = await context.newPage()
  await again.goto(newAuthorization().url)
  await submit(again, 'Sign in as someone else')
  assert.equal(await again.getByRole('heading', { level: 1 }).textContent(), 'Sign in')
  await context.close()
})
