import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { DEMO_PASSWORD, demoBundle } from '../../../src/bundle/demo/demo-bundle.ts'
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

// The main pages on the demo workspace, checked by axe-core (no serious or critical violation).
// Screenshots: every-page.test.ts.

let t: ListeningApp
let browser: Browser
let ws: ImportResult

before(async () => {
  t = await startListeningApp()
  ws = await importOk(t.db.db, demoBundle({ today: '2026-11-23' }))
  browser = await launchChromium()
})
after(async () => {
  await browser?.close()
  await t?.close()
})

async function check(page: Page, name: string) {
  // A page the viewer may not open is the 404 page, which passes axe too: each walk opens its own.
  assert.notEqual(
    await page.locator('h1').textContent(),
    'Page not found',
    `${name}: ${page.url()}`,
  )
  assert.deepEqual(await seriousViolations(page), [], `${name}: ${page.url()}`)
  assert.equal(await page.locator('h1').count(), 1, `${name} has one h1`)
  assert.equal(await page.locator('main').count(), 1, `${name} has one main`)
}

// Ids are random: a resource of the kind that the whole workspace sees, whichever comes first.
async function openToAll(kind: string): Promise<string> {
  const row = await t.db.db
    .selectFrom('resource_index')
    .select('id')
    .where('workspace_id', '=', ws.workspace_id)
    .where('type', '=', kind)
    .where('ws_visible', '=', true)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  return row.id
}

test('sign-in, home, project, task, OKR, person, canvas and team pages pass axe', async () => {
  const context = await newContext(browser, { bypassCSP: true })
  const page = await context.newPage()
  await page.goto(`${t.origin}/`)
  await check(page, 'sign-in')
  await signIn(page, 'ada@orbit.example', DEMO_PASSWORD)
  await check(page, 'home')

  await page.goto(`${t.origin}/${ws.workspace_id}/project/${ws.ids.mobile4}`)
  await check(page, 'project')
  assert.equal(await page.getByRole('heading', { name: 'Tasks by status' }).count(), 1)
  const shown = await t.db.db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', ws.ids.mobile4 as string)
    .executeTakeFirstOrThrow()
  assert.equal(await page.locator('.column a').count(), Number(shown.n), 'every task links')

  await page.locator('.column a').first().click()
  await page.waitForURL(/\/task\//)
  await check(page, 'task')

  await page.goto(`${t.origin}/${ws.workspace_id}/okr/${await openToAll('okr')}`)
  await check(page, 'okr')

  await page.goto(`${t.origin}/${ws.workspace_id}/person/${ws.ids.ada}`)
  await check(page, 'person')

  await page.goto(`${t.origin}/${ws.workspace_id}/canvas/${await openToAll('canvas')}`)
  await check(page, 'canvas')
  const team = await t.db.db
    .selectFrom('teams')
    .select('id')
    .where('workspace_id', '=', ws.workspace_id)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  await page.goto(`${t.origin}/${ws.workspace_id}/team/${team.id}`)
  await check(page, 'team')
  await context.close()
})

test('a comment and a key result open the page they sit on, at their anchor', async () => {
  const context = await newContext(browser)
  const page = await context.newPage()
  await page.goto(`${t.origin}/`)
  await signIn(page, 'ada@orbit.example', DEMO_PASSWORD)
  // On a task of a project the whole workspace sees: Ada, the owner, opens no private project
  // she is not in (and rows come in no set order without one).
  const comment = await t.db.db
    .selectFrom('comments as c')
    .innerJoin('tasks as k', (j) =>
      j.onRef('k.workspace_id', '=', 'c.workspace_id').onRef('k.id', '=', 'c.resource_id'),
    )
    .innerJoin('projects as p', (j) =>
      j.onRef('p.workspace_id', '=', 'k.workspace_id').onRef('p.id', '=', 'k.project_id'),
    )
    .select(['c.id', 'c.resource_id'])
    .where('c.workspace_id', '=', ws.workspace_id)
    .where('p.visibility', '=', 'workspace')
    .orderBy('c.id')
    .executeTakeFirstOrThrow()
  await page.goto(`${t.origin}/${ws.workspace_id}/comment/${comment.id}`)
  assert.equal(
    page.url(),
    `${t.origin}/${ws.workspace_id}/task/${comment.resource_id}#${comment.id}`,
  )
  assert.equal(await page.locator(`article#${comment.id}`).count(), 1)
  const kr = await t.db.db
    .selectFrom('key_results as r')
    .innerJoin('objectives as o', (j) =>
      j.onRef('o.workspace_id', '=', 'r.workspace_id').onRef('o.id', '=', 'r.objective_id'),
    )
    .select(['r.id', 'r.objective_id'])
    .where('r.workspace_id', '=', ws.workspace_id)
    .where('o.visibility', '=', 'workspace')
    .orderBy('r.id')
    .executeTakeFirstOrThrow()
  await page.goto(`${t.origin}/${ws.workspace_id}/key_result/${kr.id}`)
  assert.equal(page.url(), `${t.origin}/${ws.workspace_id}/okr/${kr.objective_id}#${kr.id}`)
  await context.close()
})
