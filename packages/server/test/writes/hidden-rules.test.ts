import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { contentState } from '../harness/row-counts.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// A write's rules are checked only against what its caller may open (docs/permissions.md,
// "Inferring what one cannot see"). Bob created a task in the secret project, which he cannot
// open: he opens the task as its creator and sees no project on it. Whom he may assign it to
// must not depend on who can open that project, or the answers would list its members.

let t: TestApp
let ws: ImportResult
const id = (key: string) => ws.ids[key] as string
const as = (key: string) => client(t.app, tokenOf(ws, key))

before(async () => {
  t = await startTestApp()
  const bundle = writableBundle()
  bundle.tasks?.push({
    key: 't-bobs',
    title: 'Bob wrote this one',
    status: 'todo',
    project: 'secret',
    creator: 'bob',
  })
  // Two private canvases shared with Bob: one in the secret project, one in none.
  for (const [key, project] of [
    ['c-in-secret', 'secret'],
    ['c-loose', null],
  ] as const)
    bundle.canvases?.push({
      key,
      title: key,
      project,
      visibility: 'private',
      owner: 'alice',
      shared_with: [{ person: 'bob' }],
    })
  ws = await importOk(t.db.db, bundle)
})
after(() => t.close())

// Alice belongs to the secret project; Adam, Olive and Bob do not.
const PEOPLE = ['alice', 'adam', 'olive', 'bob']

test('the task shows Bob no project: the premise', async () => {
  const task = await as('bob-key').get(`/v1/resources/${id('t-bobs')}`)
  assert.equal(task.status, 200, task.body)
  assert.equal(task.json.project_id, null)
})

test("reassigning a task whose project is hidden answers alike for the project's members and others", async () => {
  const before = await contentState(t.db.db)
  const answers = new Map<string, string>()
  for (const person of PEOPLE) {
    const reply = await as('bob-key').patch(`/v1/tasks/${id('t-bobs')}?dry_run=true`, {
      assignee_id: id(person),
    })
    answers.set(person, `${reply.status}`)
    assert.equal(reply.status, 200, `${person}: ${reply.body}`)
  }
  assert.deepEqual(await contentState(t.db.db), before, 'a dry run writes nothing')
})

test('the MCP tool answers alike too', async () => {
  for (const person of PEOPLE) {
    const answer = await callToolInProcess(t.app, tokenOf(ws, 'bob-key'), 'update_task', {
      task_id: id('t-bobs'),
      assignee_id: id(person),
      dry_run: true,
    })
    assert.notEqual(answer.isError, true, `${person}: ${JSON.stringify(answer.content)}`)
  }
})

test('someone who opens the project is held to its rule: an assignee must open it', async () => {
  const alice = await as('alice-key').patch(`/v1/tasks/${id('t-bobs')}?dry_run=true`, {
    assignee_id: id('adam'),
  })
  assert.equal(alice.status, 422, alice.body)
  assert.equal(alice.json.errors[0].path, '/assignee_id')
})

test('a shared canvas in a hidden project plans a task as a canvas in no project does', async () => {
  const answers = []
  for (const canvas of ['c-in-secret', 'c-loose']) {
    const reply = await as('bob-key').post('/v1/tasks?dry_run=true', {
      title: 'Planned here',
      project_id: id('open'),
      canvas_id: id(canvas),
    })
    answers.push(reply.status)
  }
  assert.deepEqual(answers, [200, 200])
})
