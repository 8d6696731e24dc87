import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Browser } from 'playwright-core'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { webCookies } from '../../../src/web/web-cookies.ts'
import { startSession } from '../../../src/web/web-session.ts'
import { accessBundle } from '../../harness/access-bundle.ts'
import {
  type ListeningApp,
  launchChromium,
  newContext,
  seriousViolations,
  startListeningApp,
} from '../../harness/browser-app.ts'
import { importOk } from '../../harness/bundles.ts'

// "Why you can see this" in Debian's chromium, checked by axe-core. Sign-in is tested on its
// own: here the session cookie is set directly. Screenshots: every-page.test.ts.

let t: ListeningApp
let browser: Browser
let ws: ImportResult

before(async () => {
  t = await startListeningApp()
  ws = await importOk(t.db.db, accessBundle)
  browser = await launchChromium()
})
after(async () => {
  await browser?.close()
  await t?.close()
})

test('a guest’s task page says why, passes axe, and its links open the team and project', async () => {
  const context = await newContext(browser, { bypassCSP: true })
  const session = await startSession(t.db.db, {
    workspaceId: ws.workspace_id,
    personId: ws.ids.gus as string,
    now: t.clock.now(),
  })
  const name = webCookies(t.deps.config.publicUrl).session
  await context.addCookies([{ name, value: session, url: t.origin }])
  const page = await context.newPage()
  await page.goto(`${t.origin}/${ws.workspace_id}/task/${ws.ids['t-open']}`)
  assert.deepEqual(await seriousViolations(page), [])
  const why = page.getByRole('region', { name: 'Why you can see this' })
  assert.deepEqual(await why.getByRole('listitem').allInnerTexts(), [
    'You are a member of the project Open.',
    'You belong to the team Operations, which is a member of its project.',
    'This task is assigned to you.',
  ])
  await why.getByRole('link', { name: 'Operations' }).click()
  await page.waitForURL(/\/team\//)
  assert.deepEqual(
    await page
      .getByRole('region', { name: 'Why you can see this' })
      .getByRole('listitem')
      .allInnerTexts(),
    ['You belong to this team.'],
  )
  assert.deepEqual(await seriousViolations(page), [])
  await context.close()
})
