import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { webCookies } from '../../src/web/web-cookies.ts'
import { startSession } from '../../src/web/web-session.ts'
import { accessBundle } from '../harness/access-bundle.ts'
import { importOk } from '../harness/bundles.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'

// "Why you can see this" on resource pages: the reasons of GET /v1/resources/:id/access as
// sentences, linking only to what the viewer may open (accessibility: browser/access-page).

let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, accessBundle)
})
after(() => t.close())

const id = (key: string) => ws.ids[key] as string
const PAGE_TYPE: Record<string, string> = { prj: 'project', tsk: 'task', cnv: 'canvas' }

/** The text of the page's "Why you can see this" list, one line per reason, links as [name](path). */
async function why(who: string, type: string, key: string): Promise<string[]> {
  const session = await startSession(t.db.db, {
    workspaceId: ws.workspace_id,
    personId: id(who),
    now: t.clock.now(),
  })
  const cookie = `${webCookies(t.deps.config.publicUrl).session}=${session}`
  const reply = await t.app.inject({
    method: 'GET',
    url: `/${ws.workspace_id}/${type}/${id(key)}`,
    headers: { cookie },
  })
  assert.equal(reply.statusCode, 200, `${who} ${key}: ${reply.body.slice(0, 200)}`)
  const section = /<section class="why"[^>]*>([\s\S]*?)<\/section>/.exec(reply.body)?.[1]
  assert.ok(section, `${who} ${key} has a "Why you can see this" section`)
  assert.match(section, /<h2 id="why-heading">Why you can see this<\/h2>/)
  return [...section.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) =>
    (m[1] as string).replace(/<a href="([^"]+)">([^<]*)<\/a>/g, '[$2]($1)'),
  )
}

const page = (key: string) => `/${ws.workspace_id}/${PAGE_TYPE[id(key).slice(0, 3)]}/${id(key)}`
const teamPage = (key: string) => `/${ws.workspace_id}/team/${id(key)}`

test('a task page names every reason, with links to the project and team', async () => {
  assert.deepEqual(await why('gus', 'task', 't-open'), [
    `You are a member of the project [Open](${page('open')}).`,
    `You belong to the team [Operations](${teamPage('ops')}), which is a member of its project.`,
    'This task is assigned to you.',
  ])
  assert.deepEqual(await why('alice', 'task', 't-open'), [
    'This task is open to every member of the workspace, and you are one.',
    'You created this task.',
  ])
})

test('canvas, objective, person and team pages say why too', async () => {
  assert.deepEqual(await why('bob', 'canvas', 'priv'), [
    `It is shared with your team [Operations](${teamPage('ops')}).`,
    'It is shared with you.',
  ])
  assert.deepEqual(await why('alice', 'canvas', 'priv'), ['You own this canvas.'])
  assert.deepEqual(await why('alice', 'okr', 'o-priv'), [
    `You belong to the team [Engineering](${teamPage('eng')}), which owns this objective.`,
  ])
  assert.deepEqual(await why('bob', 'project', 'secret'), ['You are a member of this project.'])
  assert.deepEqual(await why('gus', 'person', 'bob'), [
    `You both belong to the project [Open](${page('open')}).`,
  ])
  assert.deepEqual(await why('gus', 'team', 'ops'), ['You belong to this team.'])
})
