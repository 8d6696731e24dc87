import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { addProjectMember } from '../harness/access-changes/project-access.commands.ts'
import {
  ALL_READ_SCOPES,
  ALL_WRITE_SCOPES,
  importOk,
  smallBundle,
  tokenOf,
} from '../harness/bundles.ts'
import { allPages, client, startTestApp, type TestApp } from '../harness/test-app.ts'

// The audit log keeps every entry for owners and admins, but shows of a resource only what the
// reader may open now, within the token's read scopes.

let t: TestApp
let ws: ImportResult
const as = (key: string) => client(t.app, tokenOf(ws, key))
const id = (key: string) => ws.ids[key] as string
const SECRET_WORDS = ['Phoenix', 'Nebula', 'Quasar', 'Pulsar']

before(async () => {
  t = await startTestApp()
  const bundle = smallBundle()
  bundle.api_keys = [
    // Olive owns the workspace but is in neither the private project nor its team.
    { key: 'olive-key', person: 'olive', scopes: [...ALL_READ_SCOPES, 'audit:read'] },
    { key: 'olive-audit-only', person: 'olive', scopes: ['audit:read'] },
    { key: 'alice-key', person: 'alice', scopes: [...ALL_READ_SCOPES, ...ALL_WRITE_SCOPES] },
  ]
  ws = await importOk(t.db.db, bundle)
  // Alice writes in the private project, and links a visible canvas to a private task.
  const task = await as('alice-key').post('/v1/tasks', {
    title: 'Codename Phoenix',
    description: 'Nebula launch',
    project_id: id('secret'),
  })
  assert.equal(task.status, 201, task.body)
  const comment = await as('alice-key').post('/v1/comments', {
    resource_id: task.json.id,
    body: 'Quasar budget',
  })
  assert.equal(comment.status, 201, comment.body)
  const edited = await as('alice-key').patch(`/v1/canvases/${id('plan')}`, { title: 'Pulsar plan' })
  assert.equal(edited.status, 200, edited.body)
  const open = await as('alice-key').post('/v1/canvases', {
    title: 'Public board',
    project_id: id('open'),
  })
  assert.equal(open.status, 201, open.body)
  const linked = await as('alice-key').patch(`/v1/canvases/${open.json.id}`, {
    links: [task.json.id, id('t-open')],
  })
  assert.equal(linked.status, 200, linked.body)
})
after(() => t.close())

async function auditOf(key: string, query = '') {
  return allPages(as(key), `/v1/audit${query}`, 100)
}

test('entries about what the reader cannot open are listed but redacted: no id, no value, no title', async () => {
  const entries = await auditOf('olive-key')
  const body = JSON.stringify(entries)
  for (const word of SECRET_WORDS) assert.ok(!body.includes(word), `"${word}" leaked`)
  for (const hidden of [id('plan'), id('secret')]) assert.ok(!body.includes(hidden))
  const created = entries.find((entry) => entry.action === 'task.created')
  assert.ok(created)
  assert.equal(created.redacted, true)
  assert.equal(created.resource_id, null)
  assert.equal(created.resource_type, 'task')
  assert.equal(created.diff, null)
  assert.equal(created.actor_id, id('alice'))
  assert.equal(created.token_id, ws.api_keys['alice-key']?.id)
  assert.ok(
    created.changed_fields.includes('title') && created.changed_fields.includes('description'),
  )
  const comment = entries.find((entry) => entry.action === 'comment.created')
  assert.equal(comment.redacted, true)
  const plan = entries.find(
    (entry) => entry.action === 'canvas.updated' && entry.changed_fields.includes('title'),
  )
  assert.equal(plan.redacted, true)
  assert.deepEqual(plan.changed_fields, ['title'])
})

test('a visible entry never names a neighbour the reader cannot open', async () => {
  const entries = await auditOf('olive-key')
  const linked = entries.find(
    (entry) => entry.action === 'canvas.updated' && entry.changed_fields.includes('links'),
  )
  assert.ok(linked)
  assert.equal(linked.redacted, false)
  assert.deepEqual(linked.diff.links, { from: [], to: [id('t-open')] })
})

test('a resource_id filter on a hidden resource answers like one on an unknown id', async () => {
  const taskId = (
    await t.db.db
      .selectFrom('tasks')
      .select('id')
      .where('title', '=', 'Codename Phoenix')
      .executeTakeFirstOrThrow()
  ).id
  const hidden = await as('olive-key').get(`/v1/audit?resource_id=${taskId}`)
  const unknown = await as('olive-key').get('/v1/audit?resource_id=tsk_00000000000000000000000000')
  assert.equal(hidden.status, 200)
  assert.equal(hidden.body, unknown.body)
  assert.deepEqual(hidden.json, { data: [], next_cursor: null })
})

test('a token without a type read scope sees that type redacted; access is judged at read time', async () => {
  const auditOnly = await auditOf('olive-audit-only')
  const publicCanvas = auditOnly.filter((entry) => entry.resource_type === 'canvas')
  assert.ok(publicCanvas.length > 0 && publicCanvas.every((entry) => entry.redacted))
  assert.ok(!JSON.stringify(auditOnly).includes('Public board'))

  await t.db.db
    .transaction()
    .execute((trx) => addProjectMember(trx, ws.workspace_id, id('secret'), id('olive')))
  const now = await auditOf('olive-key')
  const created = now.find((entry) => entry.action === 'task.created')
  assert.equal(created.redacted, false)
  assert.equal(created.diff.title.to, 'Codename Phoenix')
  assert.deepEqual(
    now.find((entry) => entry.action === 'canvas.updated' && entry.changed_fields.includes('links'))
      ?.diff.links.to.length,
    2,
  )
})
