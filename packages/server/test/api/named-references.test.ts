import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// People, teams and projects may be given by name wherever their id is asked for, by one rule
// (docs/api.md, "Names for ids"). Of the people, "Member" is a part of two names (Alice Member,
// Bob Member); Gus, a guest, sees only himself.

let t: TestApp
let ws: ImportResult
const id = (key: string) => ws.ids[key] as string
const as = (key: string) => client(t.app, tokenOf(ws, key))

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, writableBundle())
})
after(() => t.close())

const activityCount = async () =>
  Number(
    (
      await t.db.db
        .selectFrom('activity')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

// A problem without its request id: what two answers must share to be told apart by nothing.
const problemOf = (body: string) => {
  const { request_id: _, ...problem } = JSON.parse(body)
  return problem
}

test('a write takes a project and an assignee by name, whole or a whole-word part, any case', async () => {
  const created = await as('alice-key').post('/v1/tasks', {
    title: 'Named, not numbered',
    project_id: 'open PROJECT',
    assignee_id: 'bob',
  })
  assert.equal(created.status, 201, created.body)
  assert.equal(created.json.project_id, id('open'))
  assert.equal(created.json.assignee_id, id('bob'))

  const reassigned = await as('alice-key').patch(`/v1/tasks/${created.json.id}`, {
    assignee_id: 'Alice Member',
  })
  assert.equal(reassigned.status, 200, reassigned.body)
  assert.equal(reassigned.json.assignee_id, id('alice'))

  const canvas = await as('alice-key').post('/v1/canvases', {
    title: 'By name',
    project_id: 'Secret project',
  })
  assert.equal(canvas.status, 201, canvas.body)
  assert.equal(canvas.json.project_id, id('secret'))
})

test('a name of several answers 422 listing them, and changes nothing', async () => {
  const before = await activityCount()
  const answer = await as('alice-key').patch(`/v1/tasks/${id('t-open')}`, {
    assignee_id: 'member',
    title: 'Not this either',
  })
  assert.equal(answer.status, 422, answer.body)
  assert.match(String(answer.headers['content-type']), /application\/problem\+json/)
  assert.deepEqual(answer.json.errors, [
    {
      path: '/assignee_id',
      message: 'names 2 people you may see; give one of their ids',
      candidates: [
        { id: id('alice'), name: 'Alice Member' },
        { id: id('bob'), name: 'Bob Member' },
      ],
    },
  ])
  assert.equal(await activityCount(), before)
  const task = await as('alice-key').get(`/v1/resources/${id('t-open')}`)
  assert.equal(task.json.title, 'Open task')
})

test('a name the caller may not see answers exactly as a name of nothing', async () => {
  const gus = as('gus-key')
  // Bob exists, but Gus may not see him: the same 404 as a name nobody has.
  const hidden = await gus.patch(`/v1/tasks/${id('t-open')}`, { assignee_id: 'Bob Member' })
  const unknown = await gus.patch(`/v1/tasks/${id('t-open')}`, { assignee_id: 'Zed Nobody' })
  assert.equal(hidden.status, 404, hidden.body)
  assert.deepEqual(problemOf(hidden.body), problemOf(unknown.body))
  assert.equal(hidden.json.errors[0].path, '/assignee_id')
  // "Member" names two people Gus may not see: not a 422 that would list or count them.
  const two = await gus.get('/v1/tasks?assignee_id=member')
  const nobody = await gus.get('/v1/tasks?assignee_id=zed')
  assert.equal(two.status, 404, two.body)
  assert.deepEqual(problemOf(two.body), problemOf(nobody.body))
  // Himself, by name.
  const own = await gus.get('/v1/tasks?assignee_id=gus')
  assert.equal(own.status, 200, own.body)
  assert.ok(own.json.data.some((task: { id: string }) => task.id === id('t-open')))
  // A private project Gus is not in, by name: as one that does not exist.
  const secret = await gus.post('/v1/tasks', { title: 'x', project_id: 'Secret project' })
  const none = await gus.post('/v1/tasks', { title: 'x', project_id: 'No such project' })
  assert.equal(secret.status, 404, secret.body)
  assert.deepEqual(problemOf(secret.body), problemOf(none.body))
})

test('lists take names too; a token that does not read people is not told who a name is', async () => {
  const mine = await as('alice-key').get(`/v1/tasks?assignee_id=${encodeURIComponent('Gus Guest')}`)
  assert.equal(mine.status, 200, mine.body)
  assert.ok(mine.json.data.some((task: { id: string }) => task.id === id('t-open')))
  assert.ok(mine.json.data.every((task: { assignee_id: string }) => task.assignee_id === id('gus')))
  const byProject = await as('alice-key').get('/v1/tasks?project_id=secret%20project')
  assert.deepEqual(
    byProject.json.data.map((task: { project_id: string }) => task.project_id),
    byProject.json.data.map(() => id('secret')),
  )
  assert.ok(byProject.json.data.length > 0)
  // `narrow-key` reads tasks only: a person's name is no id to it.
  const narrow = await as('narrow-key').get('/v1/tasks?assignee_id=Gus%20Guest')
  assert.equal(narrow.status, 404, narrow.body)
})

test("search's filters take names by the same rule", async () => {
  const ambiguous = await as('alice-key').post('/v1/search', {
    query: 'task',
    filters: { assignee: 'member' },
  })
  assert.equal(ambiguous.status, 422, ambiguous.body)
  assert.equal(ambiguous.json.errors[0].path, '/filters/assignee')
  assert.equal(ambiguous.json.errors[0].candidates.length, 2)
  const projects = await as('alice-key').post('/v1/search', {
    query: 'projects',
    filters: { member: 'gus' },
  })
  assert.equal(projects.status, 200, projects.body)
  assert.deepEqual(
    projects.json.results.map((hit: { id: string }) => hit.id),
    [id('open')],
  )
})

test('MCP writes take names and confirm with them: who, where, on what', async () => {
  const token = tokenOf(ws, 'alice-key')
  const text = (answer: { content: { text?: string }[] }) =>
    answer.content.map((part) => part.text ?? '').join('\n')
  const created = await callToolInProcess(t.app, token, 'create_task', {
    title: 'Said by name',
    project_id: 'Open project',
    assignee_id: 'Bob',
  })
  assert.ok(!created.isError, text(created))
  assert.match(text(created), /in “Open project”, todo, assigned to “Bob Member” \(usr_\w+\)/)
  const taskId = (created.structuredContent as { id: string }).id
  const updated = await callToolInProcess(t.app, token, 'update_task', {
    task_id: taskId,
    assignee_id: 'me',
  })
  assert.match(text(updated), /is now todo, assigned to “Alice Member” \(usr_\w+\)/)
  const dry = await callToolInProcess(t.app, token, 'update_task', {
    task_id: taskId,
    assignee_id: 'Bob Member',
    dry_run: true,
  })
  assert.match(text(dry), /nothing was written/)
  assert.match(text(dry), /assignee_id is “Bob Member”; project_id is “Open project”;/)
  const ambiguous = await callToolInProcess(t.app, token, 'update_task', {
    task_id: taskId,
    assignee_id: 'Member',
  })
  assert.ok(ambiguous.isError)
  assert.match(text(ambiguous), /Alice Member/)
  assert.match(text(ambiguous), /Bob Member/)
  const comment = await callToolInProcess(t.app, token, 'add_comment', {
    resource_id: taskId,
    body: 'Named',
  })
  assert.match(text(comment), new RegExp(`on “Said by name” \\(${taskId}\\)`))
})

test('MCP list takes names as REST does, and the server says so once in its instructions', async () => {
  const token = tokenOf(ws, 'alice-key')
  const listed = await callToolInProcess(t.app, token, 'list', {
    type: 'task',
    assignee_id: 'Gus Guest',
    project_id: 'open project',
  })
  assert.ok(!listed.isError, JSON.stringify(listed))
  const items = (listed.structuredContent as { items: { id: string }[] }).items
  assert.ok(items.some((item) => item.id === id('t-open')))
  const ambiguous = await callToolInProcess(t.app, token, 'list', {
    type: 'task',
    assignee_id: 'member',
  })
  assert.ok(ambiguous.isError)
})

test("an integration's `created_by: me` in search is its own items, as before names were read", async () => {
  const created = await as('bot-token').post('/v1/tasks', { title: 'Made by the bot' })
  assert.equal(created.status, 201, created.body)
  const answer = await as('bot-token').post('/v1/search', {
    query: 'bot',
    filters: { created_by: 'me' },
  })
  assert.equal(answer.status, 200, answer.body)
  assert.ok(answer.json.results.some((hit: { id: string }) => hit.id === created.json.id))
})
