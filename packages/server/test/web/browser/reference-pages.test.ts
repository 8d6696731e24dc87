import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import {
  type ListeningApp,
  launchChromium,
  seriousViolations,
  startListeningApp,
  withAxe,
} from '../../harness/browser-app.ts'

// The API reference (Scalar, shipped in the package), in Chromium with the page's own CSP
// enforced: at both widths nothing scrolls sideways, axe finds nothing serious, and no request
// leaves this server. The error pages are dashboard pages: every-page.test.ts walks them.

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

// Scrolls down (sections render as they come into view) until the text shows, or fails.
async function scrollUntilShown(page: Page, text: string): Promise<void> {
  const shown = page.getByText(text, { exact: true }).filter({ visible: true }).first()
  for (let turn = 0; turn < 60; turn++) {
    if (await shown.isVisible()) return
    await page.mouse.wheel(0, 500)
    await page.waitForTimeout(100)
  }
  assert.fail(`"${text}" never showed`)
}

// How many pixels the page is wider than the window.
function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => {
    // biome-ignore lint/suspicious/noExplicitAny: the document is the page's global
    const { document, innerWidth } = globalThis as any
    return Math.max(0, document.documentElement.scrollWidth - innerWidth)
  })
}

for (const width of [390, 1280]) {
  test(`the API reference renders every operation from this server alone at ${width} px`, async () => {
    const context = await withAxe(await browser.newContext({ viewport: { width, height: 800 } }))
    const page = await context.newPage()
    const elsewhere: string[] = []
    const refused: string[] = []
    page.on('request', (request) => {
      if (!request.url().startsWith(t.origin) && !request.url().startsWith('data:'))
        elsewhere.push(request.url())
    })
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text())
    })
    await page.goto(`${t.origin}/reference`)
    // Scalar names the document's title once the document is loaded and rendered.
    await page.getByRole('heading', { name: 'Workgraph API', level: 1 }).waitFor()
    // Sections render as they scroll into view: one far down the page, opened by its address,
    // shows each of its operations.
    const spec = (await (await fetch(`${t.origin}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { summary?: string; tags?: string[] }>>
    }
    const webhooks = Object.values(spec.paths).flatMap((item) =>
      Object.values(item).filter((operation) => operation.tags?.includes('webhooks')),
    )
    assert.ok(webhooks.length > 5, 'the document has its webhook operations')
    await page.goto(`${t.origin}/reference#tag/webhooks`)
    for (const operation of webhooks) await scrollUntilShown(page, operation.summary ?? '')
    assert.deepEqual(elsewhere, [], 'no request leaves this server')
    assert.deepEqual(refused, [], 'the CSP refused nothing the page needs')
    assert.equal(await sidewaysScroll(page), 0, 'the page does not scroll sideways')
    assert.deepEqual(await seriousViolations(page), [], 'axe')
    await context.close()
  })
}

test("the reference's bundle is revalidated by its ETag, and the page names no other host", async () => {
  const page = await fetch(`${t.origin}/reference`)
  assert.match(page.headers.get('content-security-policy') ?? '', /connect-src 'self'/)
  assert.doesNotMatch(await page.text(), /https?:\/\//)
  const first = await fetch(`${t.origin}/reference/scalar.js`)
  assert.equal(first.status, 200)
  const etag = first.headers.get('etag') ?? ''
  assert.ok(etag.length > 10)
  const again = await fetch(`${t.origin}/reference/scalar.js`, {
    headers: { 'if-none-match': etag },
  })
  assert.equal(again.status, 304)
})
