import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { DEMO_PASSWORD, demoBundle } from '../../../src/bundle/demo/demo-bundle.ts'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import {
  type ListeningApp,
  launchChromium,
  newContext,
  signIn,
  startListeningApp,
} from '../../harness/browser-app.ts'
import { importOk } from '../../harness/bundles.ts'

// What has no page of its own opens the page it sits on, scrolled to it. Every page's layout and
// accessibility: every-page.test.ts.

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
