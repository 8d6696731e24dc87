import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'

// `/v1/canvases` (graph/canvases/canvases.routes.ts): the list, creating, updating metadata.

let t: TestApp
let ws: ImportResult
const as = (key: string) => client(t.app, tokenOf(ws, key))
const id = (key: string) => ws.ids[key] as string

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, writableBundle(), { now: t.clock.now() })
})
after(() => t.close())

test('the list holds the canvases of projects the caller may open, by project', async () => {
  const listed = await as('alice-key').get(`/v1/canvases?project_id=${id('secret')}`)
  assert.deepEqual(
    listed.json.data.map((canvas: { id: string }) => canvas.id),
    [id('plan')],
  )
  assert.deepEqual((await as('gus-key').get('/v1/canvases')).json.data, [])
})

test('a canvas is created private to its owner, then its title, summary and links change', async () => {
  const alice = as('alice-key')
  const created = await alice.post('/v1/canvases', {
    title: 'Retro board',
    project_id: id('open'),
    visibility: 'private',
  })
  assert.equal(created.status, 201, created.body)
  assert.equal(created.json.visibility, 'private')
  assert.equal(created.json.owner_id, id('alice'))
  assert.deepEqual(
    (await as('bob-key').get(`/v1/resources/${created.json.id}`)).status,
    404,
    'a private canvas is hidden from another member',
  )
  const updated = await alice.patch(`/v1/canvases/${created.json.id}`, {
    title: 'Retrospective',
    summary: 'What went well',
    links: [id('t-open')],
  })
  assert.equal(updated.status, 200, updated.body)
  assert.equal(updated.json.title, 'Retrospective')
  assert.equal(updated.json.summary, 'What went well')
  assert.deepEqual(updated.json.links, [id('t-open')])
})

test("a canvas the caller cannot open cannot be changed: the API's one 404", async () => {
  const hidden = await as('gus-key').patch(`/v1/canvases/${id('plan')}`, { title: 'Mine now' })
  const unknown = await as('gus-key').patch('/v1/canvases/cnv_00000000000000000000000000', {
    title: 'Mine now',
  })
  assert.equal(hidden.status, 404)
  assert.deepEqual({ ...hidden.json, request_id: null }, { ...unknown.json, request_id: null })
})
