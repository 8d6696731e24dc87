import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { startSession } from '../../src/web/web-session.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'

// The dashboard's key form offers the API's fence and end (docs/dashboard.md, "API keys"):
// projects the person can open as checkboxes, and when the key stops working.

let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, smallBundle())
})
after(() => t.close())

const DAY = 24 * 60 * 60 * 1000
const PAGE = '/settings/api-keys'

async function signedIn(person: string) {
  const value = await startSession(t.db.db, {
    workspaceId: ws.workspace_id,
    personId: ws.ids[person] as string,
    now: t.clock.now(),
  })
  const cookie = `workgraph_session=${value}`
  const page = async () => {
    const reply = await t.app.inject({ method: 'GET', url: PAGE, headers: { cookie } })
    assert.equal(reply.statusCode, 200, reply.body)
    return reply.body
  }
  const submit = async (fields: [string, string][]) => {
    const body = await page()
    const hidden = (name: string) =>
      new RegExp(`name="${name}" value="([^"]+)"`).exec(body)?.[1] ?? ''
    const form = new URLSearchParams([
      ['csrf', hidden('csrf')],
      ['form_key', hidden('form_key')],
      ...fields,
    ])
    return t.app.inject({
      method: 'POST',
      url: PAGE,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    })
  }
  return { page, submit }
}

const keysOf = (person: string) =>
  t.db.db
    .selectFrom('tokens')
    .select(['name', 'project_ids', 'expires_at'])
    .where('person_id', '=', ws.ids[person] as string)
    .execute()

test('the form lists only the projects the person can open, and makes a fenced key with an end', async () => {
  const alice = await signedIn('alice')
  const page = await alice.page()
  assert.match(page, new RegExp(`name="project_ids"\\s+value="${ws.ids.secret}"`))
  assert.match(page, /name="lifetime"/)
  const bob = await signedIn('bob')
  assert.doesNotMatch(await bob.page(), /Secret project/)

  const made = await alice.submit([
    ['name', 'fenced on the dashboard'],
    ['scopes', 'task:read'],
    ['project_ids', ws.ids.secret as string],
    ['lifetime', '30'],
  ])
  assert.equal(made.statusCode, 201, made.body)
  const key = (await keysOf('alice')).find((k) => k.name === 'fenced on the dashboard')
  assert.deepEqual(key?.project_ids, [ws.ids.secret])
  assert.equal(key?.expires_at?.getTime(), t.clock.now().getTime() + 30 * DAY)
  assert.match(await alice.page(), /· 1 project/)
})

test('a project the person cannot open, or an unknown lifetime, makes no key', async () => {
  const bob = await signedIn('bob')
  const before = (await keysOf('bob')).length
  const hidden = await bob.submit([
    ['name', 'x'],
    ['scopes', 'task:read'],
    ['project_ids', ws.ids.secret as string],
    ['lifetime', ''],
  ])
  assert.equal(hidden.statusCode, 422, hidden.body)
  assert.doesNotMatch(hidden.body, /Secret project/)
  const forever = await bob.submit([
    ['name', 'x'],
    ['scopes', 'task:read'],
    ['lifetime', '100000'],
  ])
  assert.equal(forever.statusCode, 422, forever.body)
  assert.equal((await keysOf('bob')).length, before)
})
