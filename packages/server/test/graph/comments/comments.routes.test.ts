import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'

// `POST /v1/comments` (graph/comments/comments.routes.ts): comments and replies on what the
// caller may open; threads are read through `GET /v1/resources/:id/comments`.

let t: TestApp
let ws: ImportResult
const as = (key: string) => client(t.app, tokenOf(ws, key))
const id = (key: string) => ws.ids[key] as string

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, writableBundle(), { now: t.clock.now() })
})
after(() => t.close())

test('a comment and a reply to it join the thread of the resource, oldest first', async () => {
  const alice = as('alice-key')
  const comment = await alice.post('/v1/comments', {
    resource_id: id('t-open'),
    body: 'Looks good',
  })
  assert.equal(comment.status, 201, comment.body)
  assert.equal(comment.json.author_id, id('alice'))
  // The test's clock stands still: the reply comes a second later, as it would.
  t.clock.advance(1000)
  const reply = await as('gus-key').post('/v1/comments', {
    resource_id: id('t-open'),
    parent_id: comment.json.id,
    body: 'Thanks',
  })
  assert.equal(reply.status, 201, reply.body)
  assert.equal(reply.json.parent_id, comment.json.id)
  const thread = await alice.get(`/v1/resources/${id('t-open')}/comments`)
  assert.deepEqual(
    thread.json.data.map((entry: { id: string }) => entry.id),
    [comment.json.id, reply.json.id],
  )
})

test("a comment on what the caller cannot open is the API's one 404, and nothing is written", async () => {
  const before = await as('alice-key').get(`/v1/resources/${id('t-secret')}/comments`)
  const hidden = await as('gus-key').post('/v1/comments', {
    resource_id: id('t-secret'),
    body: 'Peek',
  })
  assert.equal(hidden.status, 404)
  const after = await as('alice-key').get(`/v1/resources/${id('t-secret')}/comments`)
  assert.deepEqual(after.json.data, before.json.data)
})
