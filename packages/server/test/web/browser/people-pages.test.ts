import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import {
  type ListeningApp,
  launchChromium,
  newContext,
  seriousViolations,
  signIn,
  startListeningApp,
} from '../../harness/browser-app.ts'
import { importOk } from '../../harness/bundles.ts'
import { PEOPLE_PASSWORD, peopleBundle } from '../../harness/people-bundle.ts'

// The People page and the join page in chromium, at a phone's width and a desktop's: an owner
// invites someone, who opens the link in a browser of their own and joins; the owner changes a
// role and deactivates someone. Screenshots: every-page.test.ts (WORKGRAPH_SCREENSHOTS=1).
// WORKGRAPH_PEOPLE_SHOTS=<folder> saves this walk's pages there, to look at while working.

const SHOTS = process.env.WORKGRAPH_PEOPLE_SHOTS ?? null
let t: ListeningApp
let browser: Browser
let ws: ImportResult

before(async () => {
  t = await startListeningApp()
  ws = await importOk(t.db.db, peopleBundle())
  browser = await launchChromium()
  if (SHOTS) mkdirSync(SHOTS, { recursive: true })
})
after(async () => {
  await browser?.close()
  await t?.close()
})

/** Fits 390 and 1280 px without sideways scrolling, passes axe, has one h1. */
async function check(page: Page, name: string) {
  await page.waitForLoadState('load')
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
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true })
  }
}

async function submit(page: Page, button: string | RegExp) {
  await Promise.all([
    page.waitForNavigation(),
    page.getByRole('button', { name: button, exact: typeof button === 'string' }).click(),
  ])
}

test('an owner invites someone, who joins from the link; roles change; deactivation asks first', async () => {
  const owner = await (await newContext(browser, { bypassCSP: true })).newPage()
  await owner.goto(`${t.origin}/sign-in`)
  await signIn(owner, 'olive@example.test', PEOPLE_PASSWORD)
  await owner.getByRole('link', { name: 'People', exact: true }).click()
  await owner.waitForURL(/\/people$/)
  await check(owner, 'people')

  await owner.getByLabel('Email', { exact: true }).fill('maya@example.test')
  await owner.getByLabel(/^Name/).fill('Maya Moreno')
  await owner.getByLabel('Role', { exact: true }).selectOption('admin')
  await submit(owner, 'Invite')
  assert.equal(await owner.getByRole('heading', { level: 1 }).textContent(), 'Invitation created')
  await check(owner, 'people-invited')
  const link = (await owner.locator('#secret').textContent()) as string
  assert.match(link, /\/join\/wg_inv_/)

  // The invitee, in a browser of their own.
  const invitee = await (await newContext(browser, { bypassCSP: true })).newPage()
  await invitee.goto(link)
  assert.equal(await invitee.getByLabel('Your name').inputValue(), 'Maya Moreno')
  await check(invitee, 'join')
  await invitee.getByLabel('Choose a password').fill('maya has a long password')
  await submit(invitee, /^Join/)
  assert.equal(new URL(invitee.url()).pathname, '/')
  assert.match((await invitee.locator('.who').textContent()) ?? '', /Maya Moreno/)
  // An admin now: the People page is in her navigation.
  assert.equal(await invitee.getByRole('link', { name: 'People', exact: true }).count(), 1)
  // The link is used up.
  const again = await (await newContext(browser, { bypassCSP: true })).newPage()
  await again.goto(link)
  assert.equal(
    await again.getByRole('heading', { level: 1 }).textContent(),
    'This invitation has expired or was used',
  )
  await check(again, 'join-gone')

  // A role changed from its row; a deactivation confirmed first.
  await owner.goto(`${t.origin}/people`)
  await owner.getByLabel('Role of Gus Guest').selectOption('member')
  await submit(owner, 'Change the role of Gus Guest')
  assert.match((await owner.locator('.notice').textContent()) ?? '', /role was changed/)
  await owner.getByRole('link', { name: 'Deactivate Bob Member' }).click()
  await check(owner, 'person-deactivate')
  await submit(owner, 'Deactivate Bob Member')
  assert.match((await owner.locator('.notice').textContent()) ?? '', /deactivated/)
  await check(owner, 'people-after')
  const people = await t.db.db
    .selectFrom('people')
    .select(['id', 'role', 'deactivated_at'])
    .where('workspace_id', '=', ws.workspace_id)
    .execute()
  const byId = new Map(people.map((person) => [person.id, person]))
  assert.equal(byId.get(ws.ids.gus as string)?.role, 'member')
  assert.ok(byId.get(ws.ids.bob as string)?.deactivated_at)
})
