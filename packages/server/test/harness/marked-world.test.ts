import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import { newId } from '../../src/lib/ids.ts'
import { ALL_READ_SCOPES, importOk, tokenOf } from './bundles.ts'
import { markBundle, markersIn } from './marked-world.ts'
import { World } from './oracle.ts'
import { allPages, client, startTestApp, type TestApp } from './test-app.ts'

// The markers of the property tests must name only what an answer's text says, never what the
// random characters of an id or a cursor happen to spell. Ids have m, k, x and the digits in their
// alphabet, so a visible entry's id can hold a hidden comment's marker: the shape of a one-off
// failure, "s-u0 sees hidden s-m1 in activity", that the service's stream does not explain.

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

// A guest of one project, and a comment on a task of another project that the guest cannot open.
const plain: Bundle = {
  format: 'workgraph.bundle/v1',
  workspace: { key: 's', name: 'World s' },
  people: [
    { key: 's-u0', name: 'Person 0', email: 's-u0@example.test', role: 'guest' },
    { key: 's-u1', name: 'Person 1', email: 's-u1@example.test', role: 'owner' },
  ],
  projects: [
    {
      key: 's-p0',
      name: 'Project 0',
      status: 'active',
      visibility: 'workspace',
      owner: 's-u1',
      members: [{ person: 's-u0' }],
    },
    { key: 's-p1', name: 'Project 1', status: 'active', visibility: 'private', owner: 's-u1' },
  ],
  tasks: [{ key: 's-t0', title: 'Task 0', status: 'todo', project: 's-p1', creator: 's-u1' }],
  comments: [
    { key: 's-m0', on: 's-p0', author: 's-u1', body: 'Comment 0', at: '2026-02-01T00:00:00Z' },
    { key: 's-m1', on: 's-t0', author: 's-u1', body: 'Comment 1', at: '2026-02-02T00:00:00Z' },
  ],
  api_keys: [{ key: 's-u0-key', person: 's-u0', scopes: ALL_READ_SCOPES }],
}

test('a marker spelled by the random characters of an id names nothing', async () => {
  const { bundle, markers } = markBundle(plain)
  const marker = [...markers].find(([, key]) => key === 's-m1')?.[0] as string
  // What random ids do now and then, on purpose: the visible entry of s-p0's creation has an id
  // (and so a URL) ending in the marker of the hidden comment.
  const spelled = `act_${marker.padStart(26, '0')}`
  const result = await importOk(t.db.db, bundle, {
    makeId: (kind, key) =>
      kind === 'activity' && key === 'project.created:s-p0' ? spelled : newId(kind),
  })
  const world = new World(bundle)
  assert.equal(world.canOpen('s-u0', 's-m1'), false)
  const activity = JSON.stringify(
    await allPages(client(t.app, tokenOf(result, 's-u0-key')), '/v1/activity', 100),
  )
  assert.ok(activity.includes(spelled), 'the entry with the id is shown')
  assert.ok(!activity.includes('Comment 1'), 'the hidden comment is not')
  const named = markersIn(activity).map((found) => markers.get(found))
  assert.ok(named.includes('s-m0') && named.includes('s-p0'), 'real markers are still found')
  assert.ok(!named.includes('s-m1'), 's-m1 is named by nothing but the id')
})

test('markers are found in text whatever surrounds them, and never inside ids or cursors', () => {
  const text = JSON.stringify({
    id: 'act_5zk1ta73t4rkjs5ywevmk3xbmr',
    url: 'https://example.test/v1/resources/prj_4ccmtfcqc1k9aj4jw4zjfnmk8x',
    next_cursor: 'Qmk7xAbCdEfGhIjKlMn-_0123456789mk12xabcdefghijklmnopqrstuvw',
    next: '/audit?actor_id=usr_1&cursor=AbCdEfGhIjKlMn-_0123456789mk13xabcdefghijk',
    title: 'Task 3 zorb mk31x',
    summary: '**Canvas 2 mk40x**\n\nmk41x',
    description: 'mk5x',
  })
  assert.deepEqual(markersIn(text).sort(), ['mk31x', 'mk40x', 'mk41x', 'mk5x'])
})
