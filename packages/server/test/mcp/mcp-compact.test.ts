import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { demoBundle } from '../../src/bundle/demo/demo-bundle.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { importOk, tokenOf } from '../harness/bundles.ts'
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { allPages, client, startTestApp, type TestApp } from '../harness/test-app.ts'

// MCP's answers are compact (docs/mcp.md, "Results"): a summary says each source once, by the id
// `fetch` takes back, and the default budget never cuts a default summary.

const TODAY = '2026-11-22'
let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp({ clock: new ManualClock(`${TODAY}T12:00:00.000Z`) })
  ws = await importOk(t.db.db, demoBundle({ today: TODAY }), {
    now: new Date(`${TODAY}T12:00:00.000Z`),
  })
})
after(() => t.close())

// Every resource the demo's owner may open, of every kind a summary is made of.
async function everyId(): Promise<string[]> {
  const api = client(t.app, tokenOf(ws, 'ada-key'))
  const ids: string[] = [ws.workspace_id]
  for (const list of ['projects', 'canvases', 'tasks', 'okrs', 'people', 'teams']) {
    for (const item of await allPages(api, `/v1/${list}`, 100)) {
      ids.push(item.id)
      for (const kr of item.key_results ?? []) ids.push(kr.id)
    }
  }
  // Comments, check-ins and activity: as the activity names them, its newest 200 entries.
  const activity = (await api.get('/v1/activity?limit=100')).json.data
  for (const entry of activity) ids.push(entry.id, entry.object_id ?? entry.id)
  return [...new Set(ids.filter(Boolean))]
}

test('the default budget never cuts a default summary; each source is said once, by id', async () => {
  const token = tokenOf(ws, 'ada-key')
  const ids = await everyId()
  assert.ok(ids.length > 300, `${ids.length}`)
  let fetched = 0
  for (const id of ids) {
    const answer = await callToolInProcess(t.app, token, 'fetch', { id })
    if (answer.isError) continue
    fetched++
    const text = answer.content.map((part) => part.text ?? '').join('\n')
    const body = answer.structuredContent as { truncated: boolean; sources: string[] }
    assert.equal(body.truncated, false, `${id} was cut:\n${text}`)
    assert.ok(!text.includes('Cut to fit'), text)
    for (const source of body.sources) {
      assert.equal(text.split(source).length, 2, `${source} said once in:\n${text}`)
    }
    // The page of nothing but the subject: no other URL.
    assert.equal(text.match(/https?:\/\//g)?.length ?? 0, 1, text)
  }
  assert.ok(fetched > 300, `${fetched}`)
})

test("MCP's fetch says what REST's compact summary says, and its structured content is that", async () => {
  const token = tokenOf(ws, 'ada-key')
  const api = client(t.app, token)
  const project = ws.ids.mobile ?? (await api.get('/v1/projects?limit=1')).json.data[0].id
  const rest = await api.get(`/v1/resources/${project}/summary?format=compact&max_tokens=2000`)
  const answer = await callToolInProcess(t.app, token, 'fetch', { id: project })
  const body = answer.structuredContent as Record<string, unknown>
  assert.deepEqual({ ...body, budget: null }, { ...rest.json, budget: null })
  const text = answer.content.map((part) => part.text ?? '').join('\n')
  assert.ok(text.includes(rest.json.text), text)
  assert.ok(text.includes(`Sources: [1] ${rest.json.sources[0]}`), text)
})
