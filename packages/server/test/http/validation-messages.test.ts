import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// Validation problems say, in a sentence that names the field, what to change (docs/errors.md).
let t: TestApp
let api: ReturnType<typeof client>
let projectId: string
before(async () => {
  t = await startTestApp()
  const ws = await importOk(t.db.db, writableBundle())
  api = client(t.app, tokenOf(ws, 'alice-key'))
  projectId = ws.ids.open as string
})
after(() => t.close())

test('a body breaking its schema gets one sentence per field, at its JSON Pointer', async () => {
  const reply = await api.post('/v1/tasks', {
    title: '',
    project_id: projectId,
    status: 'doing',
    colour: 'red',
  })
  assert.equal(reply.status, 422)
  assert.equal(reply.json.code, 'validation_failed')
  assert.equal(reply.json.detail, 'The body is invalid.')
  assert.deepEqual(
    [...reply.json.errors].sort((a, b) => a.path.localeCompare(b.path)),
    [
      { path: '/colour', message: 'unknown field: colour.' },
      { path: '/status', message: 'status must be one of: todo, in_progress, blocked, done.' },
      { path: '/title', message: 'title must be at least 1 character long.' },
    ],
  )
  const missing = await api.post('/v1/tasks', { project_id: projectId })
  assert.deepEqual(missing.json.errors, [{ path: '/title', message: 'title is required.' }])
})

test('query parameters are named too', async () => {
  const reply = await api.get('/v1/tasks?limit=1000')
  assert.equal(reply.status, 422)
  assert.deepEqual(reply.json.errors, [{ path: '/limit', message: 'limit must be at most 100.' }])
  const word = await api.get('/v1/tasks?limit=many')
  assert.deepEqual(word.json.errors, [{ path: '/limit', message: 'limit must be an integer.' }])
})

test('a value matching no branch of a nullable field is one sentence', async () => {
  const task = (await api.post('/v1/tasks', { title: 'Nullable', project_id: projectId })).json
  const reply = await api.patch(`/v1/tasks/${task.id}`, { due: 5 })
  assert.equal(reply.status, 422)
  assert.equal(reply.json.errors.length, 1, JSON.stringify(reply.json.errors))
  assert.equal(reply.json.errors[0].path, '/due')
  assert.match(reply.json.errors[0].message, /^due must be .* or null\.$/)
})
