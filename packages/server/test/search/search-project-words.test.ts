import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// An item matches the words of its project's name and description, as part of it, only when the
// caller may open that project: a task one was given in a private project says nothing of it.
let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp()
  const bundle = smallBundle()
  bundle.tasks?.push({
    key: 'given',
    title: 'Plain chore',
    status: 'todo',
    project: 'secret',
    creator: 'alice',
    assignee: 'bob',
    created_at: '2026-03-02T00:00:00Z',
  })
  ws = await importOk(t.db.db, bundle)
})
after(() => t.close())

const ids = async (key: string, query: string) => {
  const reply = await client(t.app, tokenOf(ws, key)).post('/v1/search', {
    query,
    limit: 50,
    max_tokens: 20_000,
  })
  assert.equal(reply.status, 200, reply.body)
  return reply.json.results.map((hit: { id: string }) => hit.id) as string[]
}

test("a task in a project its caller may open matches the project's words", async () => {
  // Alice belongs to the private project through her team.
  assert.ok((await ids('alice-key', 'secret')).includes(ws.ids.given as string))
  assert.ok(
    (await ids('alice-key', 'members')).includes(ws.ids.given as string),
    'its description too',
  )
})

test("a task given in a private project never matches that project's words", async () => {
  // Bob may open the task (it is his) but not its project: neither its name nor its
  // description finds the task, so the answer cannot tell him what the project is called.
  assert.ok((await ids('bob-key', 'chore')).includes(ws.ids.given as string), 'he sees the task')
  assert.deepEqual(await ids('bob-key', 'secret'), [])
  assert.ok(!(await ids('bob-key', 'members')).includes(ws.ids.given as string))
})
