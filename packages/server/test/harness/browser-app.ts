import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { startTestApp, type TestApp } from './test-app.ts'

/** The real app listening on 127.0.0.1, with PUBLIC_URL set to the address it listens on. */
export interface ListeningApp extends TestApp {
  /** `http://127.0.0.1:<port>`, the app's PUBLIC_URL (and so APP_URL). */
  origin: string
}

// A free port, found by listening on port 0; PUBLIC_URL must be known before the app is built.
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (!address || typeof address === 'string') throw new Error('no port')
  return address.port
}

/** Starts the real Fastify app on a fresh database and a port of its own; close it in `after`. */
export async function startListeningApp(env: NodeJS.ProcessEnv = {}): Promise<ListeningApp> {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  // Sign-in budgets are tested with the OAuth pages, which share them; here they would only count.
  const t = await startTestApp({
    env: { PUBLIC_URL: origin, OAUTH_SIGN_INS_PER_MINUTE: '100000', ...env },
  })
  await t.app.listen({ port, host: '127.0.0.1' })
  return { ...t, origin }
}

/**
 * Debian's chromium driven by playwright-core, which never downloads a browser. `.ci/run`
 * installs the package when it is missing.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.WORKGRAPH_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}

/** A fresh browser context (its own cookies) at a desktop size, optionally without CSP for axe. */
export function newContext(browser: Browser, options: { bypassCSP?: boolean } = {}) {
  return browser.newContext({ viewport: { width: 1024, height: 700 }, ...options })
}

/** Fills and submits the sign-in form on the current page. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await Promise.all([
    page.waitForLoadState('load'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ])
}

/** The name of the session cookie in a context, and its value, if any. */
export async function sessionCookie(context: BrowserContext): Promise<string | undefined> {
  const cookies = await context.cookies()
  return cookies.find((cookie) => cookie.name.endsWith('workgraph_session'))?.value
}

interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: unknown[] }[]
}

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

/**
 * Loads axe-core into every page of a context as the page starts, through the browser's own
 * channel, which the CSP does not govern: for contexts that keep the CSP enforced.
 */
export async function withAxe(context: BrowserContext): Promise<BrowserContext> {
  await context.addInitScript({ path: AXE_PATH })
  return context
}

/**
 * Runs axe-core in the page and returns its serious and critical violations, described. The
 * context must bypass the CSP, which (rightly) forbids the injected script, or load axe itself
 * (`withAxe`).
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  return axeViolations(page, ['serious', 'critical'])
}

/** As `seriousViolations`, for every impact: minor and moderate ones too. */
export async function allViolations(page: Page): Promise<string[]> {
  return axeViolations(page, ['minor', 'moderate', 'serious', 'critical'])
}

async function axeViolations(page: Page, impacts: readonly string[]): Promise<string[]> {
  // A click that navigates returns once the next page starts loading; injecting then can find a
  // document with no head yet (seen once in CI), so wait for the page to be whole.
  await page.waitForLoadState('load')
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ path: AXE_PATH })
  const violations = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe and the document are the page's globals
    const { axe, document } = globalThis as any
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations as AxeViolation[]
  })
  return violations
    .filter((v) => impacts.includes(v.impact ?? ''))
    .map(
      (v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`,
    )
}
