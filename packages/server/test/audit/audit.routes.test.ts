import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// `GET /v1/audit` (audit/audit.routes.ts): the audit log for owners and admins, with filters.
// What an entry may show of what the reader cannot open is audit.property.test.ts's subject.

let t: TestApp
let ws: ImportResult
const as = (key: string) => client(t.app, tokenOf(ws, key))
const id = (key: string) => ws.ids[key] as string

before(async () => {
  t = await startTestApp()
  const bundle = writableBundle()
  for (const key of bundle.api_keys ?? [])
    if (key.key === 'olive-key') key.scopes = [...key.scopes, 'audit:read']
  ws = await importOk(t.db.db, bundle, { now: t.clock.now() })
})
after(() => t.close())

test('a write is audited with its actor, action and diff, and the filters find it', async () => {
  const task = await as('alice-key').post('/v1/tasks', {
    title: 'Audit me',
    project_id: id('open'),
  })
  const byResource = await as('olive-key').get(`/v1/audit?resource_id=${task.json.id}`)
  assert.equal(byResource.status, 200, byResource.body)
  const [entry] = byResource.json.data
  assert.equal(entry.action, 'task.created')
  assert.equal(entry.actor_id, id('alice'))
  assert.equal(entry.resource_id, task.json.id)
  const byAction = await as('olive-key').get('/v1/audit?action=task.created')
  assert.ok(byAction.json.data.some((e: { resource_id: string }) => e.resource_id === task.json.id))
  const byOther = await as('olive-key').get(`/v1/audit?actor_id=${id('bob')}`)
  assert.deepEqual(byOther.json.data, [])
})

test('the log needs audit:read', async () => {
  const member = await as('alice-key').get('/v1/audit')
  assert.equal(member.status, 403)
})
