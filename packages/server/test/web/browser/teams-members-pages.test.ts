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
  withAxe,
} from '../../harness/browser-app.ts'
import { importOk } from '../../harness/bundles.ts'
import { PEOPLE_PASSWORD, peopleBundle } from '../../harness/people-bundle.ts'

// The Teams page, a project's members page and the new-project form in chromium, at a phone's
// width and a desktop's, with the CSP enforced: every change is a real form submission (the
// browser's own Origin, Referer and cookies). Screenshots: every-page.test.ts
// (WORKGRAPH_SCREENSHOTS=1). WORKGRAPH_TEAMS_SHOTS=<folder> saves this walk's pages there.

const SHOTS = process.env.WORKGRAPH_TEAMS_SHOTS ?? null
let t: ListeningApp
let browser: Browser
let ws: ImportResult
const id = (key: string) => ws.ids[key] as string

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

async function signedIn(email: string): Promise<Page> {
  const page = await (await withAxe(await newContext(browser))).newPage()
  await page.goto(`${t.origin}/sign-in`)
  await signIn(page, email, PEOPLE_PASSWORD)
  return page
}

const teamMembers = async (teamId: string) =>
  (
    await t.db.db
      .selectFrom('team_members')
      .select('person_id')
      .where('team_id', '=', teamId)
      .execute()
  )
    .map((row) => row.person_id)
    .sort()

test('an admin creates a team, fills it, renames it and removes someone, asked first', async () => {
  const page = await signedIn('adam@example.test')
  await page.getByRole('link', { name: 'Teams', exact: true }).click()
  await page.waitForURL(/\/teams$/)
  await check(page, 'teams')

  await page.getByLabel('Name', { exact: true }).fill('Design')
  await page
    .getByRole('group', { name: 'First members (optional)' })
    .getByLabel('Bob Member')
    .check()
  await submit(page, 'Create team')
  assert.match((await page.locator('.notice').textContent()) ?? '', /team was created/)
  const design = await t.db.db
    .selectFrom('teams')
    .select('id')
    .where('name', '=', 'Design')
    .executeTakeFirstOrThrow()
  assert.deepEqual(await teamMembers(design.id), [id('bob')])

  // A taken name comes back beside the field, with what was typed.
  await page.getByLabel('Name', { exact: true }).fill('engineering')
  await submit(page, 'Create team')
  assert.equal(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid'), 'true')
  assert.match((await page.locator('#team-name-error').textContent()) ?? '', /another team/)
  await check(page, 'teams-refused')

  await page.getByLabel('Add to Engineering').selectOption({ label: 'Bob Member' })
  await submit(page, 'Add to Engineering')
  assert.match((await page.locator('.notice').textContent()) ?? '', /person was added/)
  assert.deepEqual(await teamMembers(id('eng')), [id('alice'), id('bob')].sort())

  await page.getByText('Rename Design').click()
  await page.getByLabel('New name of Design').fill('Product design')
  await submit(page, 'Save the name of Design')
  assert.match((await page.locator('.notice').textContent()) ?? '', /renamed/)
  assert.equal(await page.getByRole('link', { name: 'Product design', exact: true }).count(), 1)

  await page.getByRole('link', { name: 'Remove Bob Member from Engineering' }).click()
  await check(page, 'team-member-remove')
  assert.deepEqual(await teamMembers(id('eng')), [id('alice'), id('bob')].sort())
  await submit(page, 'Remove Bob Member from Engineering')
  assert.match((await page.locator('.notice').textContent()) ?? '', /removed from the team/)
  assert.deepEqual(await teamMembers(id('eng')), [id('alice')])
})

test('a member sees the teams without forms; a guest sees only their own', async () => {
  const member = await signedIn('bob@example.test')
  await member.goto(`${t.origin}/teams`)
  await check(member, 'teams-member')
  assert.equal(await member.locator('main form').count(), 0)
  assert.equal(await member.getByRole('link', { name: 'Engineering' }).count(), 1)
  const guest = await signedIn('gus@partner.test')
  await guest.getByRole('link', { name: 'Teams', exact: true }).click()
  await guest.waitForURL(/\/teams$/)
  assert.equal(await guest.getByRole('link', { name: 'Engineering' }).count(), 0)
  assert.match((await guest.locator('main').textContent()) ?? '', /No team you can see/)
})

test("a project's owner adds and removes members and is told why a change is refused", async () => {
  const page = await signedIn('alice@example.test')
  await page.goto(`${t.origin}/${ws.workspace_id}/project/${id('open')}`)
  await page.getByRole('link', { name: 'Members and who may open it' }).click()
  await page.waitForURL(/\/members$/)
  await check(page, 'project-members')

  await page.getByLabel('Person, team or integration').selectOption({ label: 'Engineering' })
  await submit(page, 'Add member')
  assert.match((await page.locator('.notice').textContent()) ?? '', /member was added/)
  await page.getByLabel('Person, team or integration').selectOption({ label: 'Bob Member' })
  await submit(page, 'Add member')
  const direct = async () =>
    (
      await t.db.db
        .selectFrom('project_members')
        .select('principal_id')
        .where('project_id', '=', id('open'))
        .execute()
    )
      .map((row) => row.principal_id)
      .sort()
  assert.deepEqual(await direct(), [id('bob'), id('eng'), id('gus')].sort())

  // Private while its owner belongs only through a team she could remove: allowed, since the
  // team holds her; then removing that team is refused on the page, with why.
  await page.getByLabel('Private').check()
  await submit(page, 'Save')
  assert.match((await page.locator('.notice').textContent()) ?? '', /was saved/)
  await page.getByRole('link', { name: 'Remove Engineering' }).click()
  await check(page, 'project-member-remove')
  await submit(page, 'Remove Engineering')
  assert.match((await page.locator('main').textContent()) ?? '', /would leave you, its owner/)
  await check(page, 'project-members-refused')
  assert.deepEqual(await direct(), [id('bob'), id('eng'), id('gus')].sort())

  // Handing it to someone who cannot open it is refused beside the owner field.
  await page.getByLabel('Owner').selectOption({ label: 'Olive Owner' })
  await submit(page, 'Save')
  assert.equal(await page.getByLabel('Owner').getAttribute('aria-invalid'), 'true')
  assert.match((await page.locator('#owner-error').textContent()) ?? '', /unable to open it/)

  await page.getByRole('link', { name: 'Remove Gus Guest' }).click()
  await submit(page, 'Remove Gus Guest')
  assert.match((await page.locator('.notice').textContent()) ?? '', /member was removed/)
  assert.deepEqual(await direct(), [id('bob'), id('eng')].sort())
})

test('a member makes a project from the home page and lands on it', async () => {
  const page = await signedIn('bob@example.test')
  assert.equal(new URL(page.url()).pathname, '/')
  await page.getByLabel('Name', { exact: true }).fill('Skunkworks')
  await page.getByLabel('Description (optional)').fill('Quiet work')
  await page.getByLabel('Private').check()
  await check(page, 'home-new-project')
  await submit(page, 'Create project')
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Skunkworks')
  const project = await t.db.db
    .selectFrom('projects')
    .select(['id', 'owner_id', 'visibility'])
    .where('name', '=', 'Skunkworks')
    .executeTakeFirstOrThrow()
  assert.equal(new URL(page.url()).pathname, `/${ws.workspace_id}/project/${project.id}`)
  assert.deepEqual([project.owner_id, project.visibility], [id('bob'), 'private'])
})
