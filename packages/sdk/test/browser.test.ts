import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, normalize } from 'node:path'
import { after, before, test } from 'node:test'
import type { Browser } from 'playwright-core'
import type { ImportResult } from '../../server/src/bundle/import-bundle.ts'
import {
  type ListeningApp,
  launchChromium,
  startListeningApp,
} from '../../server/test/harness/browser-app.ts'
import { importOk, tokenOf, webhookBundle } from '../../server/test/harness/bundles.ts'

// The built SDK in Debian's chromium: plain ES modules through an import map, no bundler, calling
// the real server with the browser's own fetch (and verifying a webhook with no node:crypto).
const SDK = join(import.meta.dirname, '..')
const ROOT = join(SDK, '../..')
const NOBLE = join(ROOT, 'node_modules/@noble/hashes/esm')
let t: ListeningApp
let ws: ImportResult
let browser: Browser
let built: string

before(async () => {
  built = mkdtempSync(join(tmpdir(), 'workgraph-sdk-browser-'))
  execFileSync(process.execPath, [
    join(ROOT, 'node_modules/typescript/bin/tsc'),
    '-p',
    join(SDK, 'tsconfig.build.json'),
    '--outDir',
    built,
  ])
  t = await startListeningApp()
  ws = await importOk(t.db.db, webhookBundle())
  browser = await launchChromium()
})
after(async () => {
  await browser?.close()
  await t?.close()
  rmSync(built, { recursive: true, force: true })
})

const IMPORT_MAP = {
  imports: Object.fromEntries(
    ['hmac', 'sha2', 'utils', 'crypto'].map((name) => [
      `@noble/hashes/${name}`,
      `/sdk-test/noble/${name}.js`,
    ]),
  ),
}

test('the SDK runs in a browser: lists, writes, errors and webhook verification', async () => {
  const page = await browser.newPage()
  // The page and the SDK's files are served on the API's origin, as an app embedding it would be.
  await page.route(`${t.origin}/sdk-test/**`, (route) => {
    const path = new URL(route.request().url()).pathname.replace('/sdk-test/', '')
    if (path === 'index.html')
      return route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>sdk</title><script type="importmap">${JSON.stringify(IMPORT_MAP)}</script>`,
      })
    const [base, rest] = path.startsWith('noble/') ? [NOBLE, path.slice(6)] : [built, path.slice(4)]
    const file = normalize(join(base, rest))
    if (!file.startsWith(base)) return route.abort()
    return route.fulfill({ contentType: 'text/javascript', body: readFileSync(file) })
  })
  await page.goto(`${t.origin}/sdk-test/index.html`)
  const result = await page.evaluate(
    async ({ token, projectId, origin, entry }) => {
      const { Workgraph, WorkgraphError, verifyWebhook } = await import(entry)
      const wg = new Workgraph({ apiKey: token, baseUrl: origin })
      const names = []
      for await (const project of wg.projects.list({ limit: 1 })) names.push(project.name)
      const task = await wg.tasks.create({ title: 'From a browser', project_id: projectId })
      const error = await wg.resources.get('tsk_missing').catch((e: unknown) => e)
      // A delivery signed with a known secret, as the server signs it.
      const secret = 'whsec_browser'
      const body = JSON.stringify({
        id: 'evt_1',
        type: 'webhook.test',
        delivery: { sent_at: Math.floor(Date.now() / 1000) },
        data: { object: {} },
      })
      const key = await crypto.subtle.importKey(
        'raw',
        new TextEncoder().encode(secret),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign'],
      )
      const mac = new Uint8Array(
        await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(body)),
      )
      const signature = [...mac].map((b) => b.toString(16).padStart(2, '0')).join('')
      const event = verifyWebhook(body, new Headers({ 'x-service-signature': signature }), secret)
      return {
        names,
        created: task.title,
        errorCode: error instanceof WorkgraphError ? error.code : String(error),
        eventType: event.type,
      }
    },
    {
      token: tokenOf(ws, 'alice-key'),
      projectId: ws.ids.open as string,
      origin: t.origin,
      entry: '/sdk-test/sdk/index.js',
    },
  )
  assert.deepEqual(result, {
    names: ['Secret project', 'Open project'],
    created: 'From a browser',
    errorCode: 'not_found',
    eventType: 'webhook.test',
  })
  await page.close()
})
