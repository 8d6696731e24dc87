import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// The `on` filter of search, and questions that read as it: "any discussion on the secret task"
// keeps the comments on the thing the caller may open whose title has those words. A thing the
// caller cannot open is never chosen, and as a filter answers as an unknown id does.

let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp()
  const base = smallBundle()
  ws = await importOk(t.db.db, {
    ...base,
    comments: [
      ...(base.comments ?? []),
      { key: 'm2', on: 'open', author: 'alice', body: 'Kickoff notes', at: '2026-11-21T10:00:00Z' },
      { key: 'm3', on: 't-open', author: 'gus', body: 'On it', at: '2026-11-22T10:00:00Z' },
    ],
  })
})
after(() => t.close())

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
type Json = any
const search = async (key: string, body: Record<string, unknown>): Promise<Json> => {
  const reply = await client(t.app, tokenOf(ws, key)).post('/v1/search', { limit: 50, ...body })
  assert.equal(reply.status, 200, reply.body)
  return reply.json
}
const keys = (answer: Json): string[] =>
  answer.results
    .map((hit: Json) => Object.entries(ws.ids).find(([, id]) => id === hit.id)?.[0] ?? hit.id)
    .sort()

test('comments on a thing named by its title', async () => {
  const answer = await search('alice-key', { query: 'any discussion on the secret task' })
  assert.equal(answer.interpreted.filters.on, ws.ids['t-secret'])
  assert.equal(answer.interpreted.filters.on_title, 'Secret task')
  assert.deepEqual(answer.interpreted.types, ['comment'])
  assert.deepEqual(keys(answer), ['m1'])
  // What was said on the open task, not on the secret one: the title decides.
  assert.deepEqual(keys(await search('alice-key', { query: 'comments on the open task' })), ['m3'])
})

test('a project named so keeps the comments in it', async () => {
  const answer = await search('gus-key', { query: 'comments on the open project' })
  assert.equal(answer.interpreted.filters.project_id, ws.ids.open)
  assert.deepEqual(keys(answer), ['m2', 'm3'])
})

test('"about" stays words that rank the comments: the one about it first', async () => {
  const answer = await search('alice-key', { query: 'comments about secret' })
  assert.equal(answer.interpreted.filters.on, undefined)
  assert.deepEqual(answer.interpreted.types, ['comment'])
  // The kind named is the set, as a filter is; the word ranks it.
  assert.equal(keys(answer)[0], 'm1')
  assert.deepEqual(keys(answer).sort(), ['m1', 'm2', 'm3'])
  assert.ok(answer.results[0].score > answer.results[1].score)
})

test('a thing the caller cannot open is never what the comments are on', async () => {
  // Bob opens neither the secret task nor its comment.
  const words = await search('bob-key', { query: 'any discussion on the secret task' })
  assert.equal(words.interpreted.filters.on, undefined)
  assert.ok(!keys(words).includes('m1') && !keys(words).includes('t-secret'))
  const hidden = await search('bob-key', { query: 'remark', filters: { on: ws.ids['t-secret'] } })
  const unknown = await search('bob-key', {
    query: 'remark',
    filters: { on: 'tsk_00000000000000000000000000' },
  })
  const apart = ({ budget: _, ...answer }: Json) => ({
    ...answer,
    interpreted: { ...answer.interpreted, filters: {} },
  })
  assert.deepEqual(hidden.results, [])
  assert.deepEqual(apart(hidden), apart(unknown))
})
