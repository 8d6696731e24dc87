import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { type Principal, resolvePrincipal } from '../../src/access/principal.ts'
import { openableIds, type Visibility, visibilityFor } from '../../src/access/visibility.ts'
import { listActivity } from '../../src/activity/activity.queries.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { listTasks } from '../../src/graph/tasks/tasks.queries.ts'
import { parseQuestion } from '../../src/search/question-parser.ts'
import { searchIndex } from '../../src/search/search.queries.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'

// A principal with more than 32 tokens gets other SQL (its list hidden from the planner in an
// InitPlan, and in search a hashed `= any` for members). The random workspaces of the property
// tests are too small to reach it, so here each principal is padded with tokens that open
// nothing: it must see exactly what it sees with its own few tokens, through the short SQL.
let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, smallBundle())
})
after(() => t.close())

const PADDING = Array.from({ length: 40 }, (_, i) => `prj_padding${String(i).padStart(20, '0')}`)

async function seen(visibility: Visibility) {
  const db = t.db.db
  const ids = (await db.selectFrom('resource_index').select('id').execute()).map((row) => row.id)
  const search = (text: string) =>
    searchIndex(db, visibility, {
      question: parseQuestion(text, new Date()),
      filters: {},
      types: ['project', 'canvas', 'task', 'okr', 'comment', 'activity'],
      readableKinds: ['project', 'canvas', 'task', 'okr', 'comment', 'activity'],
      after: null,
      limit: 50,
    })
  return {
    openable: [...(await openableIds(db, visibility, ids))].sort(),
    tasks: (await listTasks(db, visibility, {}, null, 50)).map((row) => row.id),
    activity: (await listActivity(db, visibility, [], {}, null, 50)).map((row) => row.id),
    search: [...(await search('secret')), ...(await search('created'))].map((row) => [
      row.id,
      row.title,
      row.path,
    ]),
  }
}

test('a principal with more than 32 tokens sees exactly what its own tokens open', async () => {
  const actors: [string, 'person' | 'integration', Principal['role']][] = [
    ['olive', 'person', 'owner'],
    ['alice', 'person', 'member'],
    ['bob', 'person', 'member'],
    ['gus', 'person', 'guest'],
    ['bot', 'integration', null],
  ]
  for (const [key, actorKind, role] of actors) {
    const principal = await resolvePrincipal(t.db.db, {
      workspaceId: ws.workspace_id,
      actorId: ws.ids[key] as string,
      actorKind,
      role,
    })
    const padded: Principal = { ...principal, tokens: [...principal.tokens, ...PADDING] }
    const own = await seen(visibilityFor(principal))
    assert.deepEqual(await seen(visibilityFor(padded)), own, key)
    if (key === 'alice') assert.ok(own.search.some(([, title]) => title === 'Secret project'))
    if (key === 'bob') assert.ok(!own.search.some(([, title]) => title === 'Secret project'))
  }
})
