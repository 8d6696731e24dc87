// The kind's data must be in the catalogue before the modules that derive lists from it load.
import './gadget-kind.ts'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import { syncResourceIndex } from '../../src/access/resource-index.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { idFromBytes } from '../../src/lib/ids.ts'
import { startSession } from '../../src/web/web-session.ts'
import { importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { postMcp } from '../harness/mcp-raw.ts'
import { World } from '../harness/oracle.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { createGadgetTable, defineGadgetParts } from './gadget-parts.ts'

// A resource kind defined only here (gadget-kind.ts, gadget-parts.ts) reaches every consumer
// that iterates the catalogue, with no consumer edited for it: visibility, records, search,
// summaries, MCP's list tool and the dashboard's pages.

const bundle = smallBundle()
const world = new World(bundle)
const CREDENTIALS: Record<string, string> = {
  olive: 'olive-key',
  adam: 'adam-key',
  alice: 'alice-key',
  bob: 'bob-key',
  gus: 'gus-key',
  bot: 'bot-token',
}
const GADGETS = [
  { key: 'g-open', project: 'open', title: 'Sprocket polisher', notes: 'Keeps sprockets bright' },
  { key: 'g-secret', project: 'secret', title: 'Sprocket vault', notes: 'Where sprockets sleep' },
]

let t: TestApp
let ws: ImportResult
const ids = new Map<string, string>()

before(async () => {
  defineGadgetParts()
  t = await startTestApp()
  await createGadgetTable(t.db.db)
  ws = await importOk(t.db.db, bundle)
  for (const gadget of GADGETS) {
    const id = idFromBytes('gdt', randomBytes(16))
    ids.set(gadget.key, id)
    await sql`insert into gadgets values (${ws.workspace_id}, ${id}, ${ws.ids[gadget.project]},
      ${gadget.title}, ${gadget.notes}, now(), now())`.execute(t.db.db)
  }
  await syncResourceIndex(t.db.db, ws.workspace_id, { all: true })
})
after(() => t.close())

// What the oracle says each viewer may open: a gadget follows its project.
const expected = (viewer: string) =>
  GADGETS.filter((gadget) => world.canOpenProject(viewer, gadget.project)).map(
    (gadget) => ids.get(gadget.key) as string,
  )

test('a kind defined only in a test is opened, summarized and searched by exactly whom the oracle says', async () => {
  for (const [viewer, credential] of Object.entries(CREDENTIALS)) {
    const as = client(t.app, tokenOf(ws, credential))
    const open = expected(viewer)
    for (const gadget of GADGETS) {
      const id = ids.get(gadget.key) as string
      const status = open.includes(id) ? 200 : 404
      const record = await as.get(`/v1/resources/${id}`)
      assert.equal(record.status, status, `${viewer} GET ${gadget.key}`)
      if (status === 200) assert.equal(record.json.title, gadget.title)
      const summary = await as.get(`/v1/resources/${id}/summary`)
      assert.equal(summary.status, status, `${viewer} summary of ${gadget.key}`)
      if (status === 200) assert.match(summary.json.text, new RegExp(gadget.notes))
    }
    const search = await as.post('/v1/search', { query: 'sprocket' })
    assert.equal(search.status, 200)
    const found = search.json.results.filter((hit: { type: string }) => hit.type === 'gadget')
    assert.deepEqual(
      found.map((hit: { id: string }) => hit.id).sort(),
      [...open].sort(),
      `${viewer} search`,
    )
  }
})

test("the kind's read scope guards it on every route on any resource, and it has access reasons", async () => {
  const id = ids.get('g-secret') as string
  for (const suffix of ['', '/summary', '/links', '/access']) {
    const narrow = await client(t.app, tokenOf(ws, 'narrow-key')).get(
      `/v1/resources/${id}${suffix}`,
    )
    assert.equal(narrow.status, 403, `without project:read: ${suffix || 'record'}`)
    assert.deepEqual(narrow.json.required_scopes, ['project:read'])
  }
  const why = await client(t.app, tokenOf(ws, 'alice-key')).get(`/v1/resources/${id}/access`)
  assert.equal(why.status, 200, why.body)
  assert.deepEqual(why.json.reasons, [{ kind: 'team_member', via_id: ws.ids.eng }])
})

test('MCP offers the kind in its list tool and lists exactly what the oracle says', async () => {
  const tools = await postMcp(t.app, tokenOf(ws, 'alice-key'), {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/list',
  })
  type Listed = { tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[] }
  const listed = tools.messages[0]?.result as Listed
  const list = listed.tools.find((tool) => tool.name === 'list')
  assert.ok(list, 'the list tool is offered')
  const kinds = list.inputSchema.properties.type as { enum: string[] }
  assert.ok(kinds.enum.includes('gadget'), `list offers ${kinds.enum.join(', ')}`)
  for (const [viewer, credential] of Object.entries(CREDENTIALS)) {
    const listed = await callToolInProcess(t.app, tokenOf(ws, credential), 'list', {
      type: 'gadget',
    })
    const items = (listed.structuredContent as { items: { id: string }[] }).items
    assert.deepEqual(items.map((item) => item.id).sort(), expected(viewer).sort(), viewer)
  }
})

test('the dashboard shows the kind on its own page, to those who may open it', async () => {
  for (const viewer of ['alice', 'gus']) {
    const session = await startSession(t.db.db, {
      workspaceId: ws.workspace_id,
      personId: ws.ids[viewer] as string,
      now: t.clock.now(),
    })
    for (const gadget of GADGETS) {
      const id = ids.get(gadget.key) as string
      const page = await t.app.inject({
        url: `/${ws.workspace_id}/gadget/${id}`,
        headers: { cookie: `workgraph_session=${session}` },
      })
      const open = expected(viewer).includes(id)
      assert.equal(page.statusCode, open ? 200 : 404, `${viewer} page of ${gadget.key}`)
      if (open) assert.match(page.body, new RegExp(`<h1>${gadget.title}</h1>`))
    }
  }
})

test('the OpenAPI document is built from the catalogue: it names the kind and its record', async () => {
  const document = await client(t.app).get('/v1/openapi.json')
  assert.ok(document.json.components.schemas.GadgetRecord, 'GadgetRecord is a named schema')
  const kinds = document.json.paths['/v1/resources/{id}'].get['x-scopes-by-id-kind']
  assert.deepEqual(kinds.gadget, ['project:read'])
})
