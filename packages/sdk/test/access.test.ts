import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../server/src/bundle/import-bundle.ts'
import { type ListeningApp, startListeningApp } from '../../server/test/harness/browser-app.ts'
import { importOk, smallBundle, tokenOf } from '../../server/test/harness/bundles.ts'
import { type AccessReason, Workgraph, WorkgraphError } from '../src/index.ts'

// `wg.resources.access` against the real server over HTTP.
let t: ListeningApp
let ws: ImportResult
const sdk = (key: string) => new Workgraph({ apiKey: tokenOf(ws, key), baseUrl: t.origin })

before(async () => {
  t = await startListeningApp()
  ws = await importOk(t.db.db, smallBundle())
})
after(() => t.close())

test('wg.resources.access: your reasons, another person’s for an owner; 403 and 404', async () => {
  const task = ws.ids['t-open'] as string
  const mine = await sdk('gus-key').resources.access(task)
  assert.equal(mine.resource_id, task)
  assert.equal(mine.person_id, ws.ids.gus)
  assert.deepEqual(mine.reasons, [
    { kind: 'project_member', via_id: ws.ids.open },
    { kind: 'assignee' },
  ] satisfies AccessReason[])
  const theirs = await sdk('olive-key').resources.access(task, { person_id: ws.ids.alice })
  assert.deepEqual(theirs.reasons, [{ kind: 'workspace_member' }, { kind: 'creator' }])
  const refused = await sdk('bob-key')
    .resources.access(task, { person_id: ws.ids.alice })
    .catch((error: unknown) => error)
  assert.ok(refused instanceof WorkgraphError)
  assert.equal(refused.code, 'forbidden')
  const hidden = await sdk('gus-key')
    .resources.access(ws.ids['t-secret'] as string)
    .catch((error: unknown) => error)
  assert.ok(hidden instanceof WorkgraphError)
  assert.equal(hidden.status, 404)
})
