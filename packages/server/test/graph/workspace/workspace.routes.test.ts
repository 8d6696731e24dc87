import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { importOk, smallBundle, tokenOf } from '../../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'

let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, smallBundle())
})
after(() => t.close())

test('the workspace record counts the people the caller can see', async () => {
  const member = await client(t.app, tokenOf(ws, 'alice-key')).get('/v1/workspace')
  assert.equal(member.status, 200)
  assert.equal(member.json.id, ws.workspace_id)
  assert.equal(member.json.type, 'workspace')
  assert.equal(member.json.name, 'Test workspace')
  assert.equal(member.json.plan, 'business')
  assert.equal(member.json.member_count, 5)
  assert.deepEqual(member.json.settings, {})
  // The guest sees herself and the members of the one project she is in.
  const guest = await client(t.app, tokenOf(ws, 'gus-key')).get('/v1/workspace')
  assert.equal(guest.json.member_count, 1)
})

test('internal settings never leave the server', async () => {
  await t.db.db
    .updateTable('workspaces')
    .set({
      settings: JSON.stringify({
        timezone: 'Europe/Berlin',
        demo: true,
        secret_flag: 'x',
      }) as never,
    })
    .where('id', '=', ws.workspace_id)
    .execute()
  const reply = await client(t.app, tokenOf(ws, 'alice-key')).get('/v1/workspace')
  assert.deepEqual(reply.json.settings, { timezone: 'Europe/Berlin' })
})
