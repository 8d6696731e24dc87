import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { sql } from 'kysely'
import { syncResourceIndex } from '../../src/access/resource-index.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

/*
 * A write compiles the index row of what it creates in the statement that inserts it, and that of
 * what it changes by recompiling it afterwards (docs/architecture.md, "Writes in one statement").
 * Either way the index must stay what the source rows give: after any writes through the API,
 * throwing the workspace's index away and compiling it again from the source rows gives exactly
 * the stored rows, and the vocabulary holds every word of every title.
 */

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

// The owner and a member write most often, so that most writes are allowed.
const WRITERS = [
  'olive-key',
  'olive-key',
  'alice-key',
  'alice-key',
  'bob-key',
  'gus-key',
  'bot-token',
] as const
const title = fc
  .array(fc.constantFrom('launch', 'budget', 'review', 'pricing', 'onboarding', 'Ökonomie', 'a'), {
    minLength: 1,
    maxLength: 4,
  })
  .map((words) => words.join(' '))
// A target named by bundle key, or the task this run created last.
const target = fc.constantFrom('open', 'secret', 't-open', 't-secret', 'plan', 'o1', 'last-task')

const writeArbitrary = fc.oneof(
  fc.record({
    op: fc.constant('task' as const),
    as: fc.constantFrom(...WRITERS),
    title,
    project: fc.constantFrom('open', 'secret', null),
    assignee: fc.constantFrom('alice', 'bob', 'gus', null),
    subtask: fc.boolean(),
  }),
  fc.record({
    op: fc.constant('comment' as const),
    as: fc.constantFrom(...WRITERS),
    on: target,
    body: title,
  }),
  fc.record({
    op: fc.constant('canvas' as const),
    as: fc.constantFrom(...WRITERS),
    title,
    project: fc.constantFrom('open', 'secret', null),
    visibility: fc.constantFrom('project', 'private'),
  }),
  fc.record({
    op: fc.constant('update' as const),
    as: fc.constantFrom('creator', ...WRITERS),
    title,
    assignee: fc.constantFrom('alice', 'bob', null),
  }),
)

test('after any writes, compiling the index again from the source rows gives exactly the stored index', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(writeArbitrary, { minLength: 1, maxLength: 12 }), async (writes) => {
      const ws = await importOk(t.db.db, writableBundle())
      const id = (key: string | null) => (key === null ? undefined : ws.ids[key])
      let lastTask: string | undefined
      let creator = ''
      for (const write of writes) {
        // An update needs a task this run created.
        if (write.op === 'update' && !lastTask) continue
        const as = client(t.app, tokenOf(ws, write.as === 'creator' ? creator : write.as))
        // Refusals (404, 422, 403) are part of the property: they must leave the index alone.
        if (write.op === 'task') {
          const reply = await as.post('/v1/tasks', {
            title: write.title,
            ...(write.subtask && lastTask
              ? { parent_id: lastTask }
              : { project_id: id(write.project) }),
            assignee_id: id(write.assignee),
          })
          if (reply.status === 201) {
            ;[lastTask, creator] = [reply.json.id, write.as]
            // The answer, read in the statement that wrote the task, is the record as read later.
            assert.deepEqual(reply.json, (await as.get(`/v1/resources/${lastTask}`)).json)
          }
        } else if (write.op === 'comment') {
          const on = write.on === 'last-task' ? lastTask : id(write.on)
          if (!on) continue
          const reply = await as.post('/v1/comments', { resource_id: on, body: write.body })
          if (reply.status === 201)
            assert.deepEqual(reply.json, (await as.get(`/v1/resources/${reply.json.id}`)).json)
        } else if (write.op === 'canvas') {
          await as.post('/v1/canvases', {
            title: write.title,
            project_id: id(write.project),
            visibility: write.visibility,
          })
        } else {
          await as.patch(`/v1/tasks/${lastTask}`, {
            title: write.title,
            assignee_id: write.assignee === null ? null : id(write.assignee),
          })
        }
      }
      const stored = await indexOf(ws.workspace_id)
      await t.db.db
        .deleteFrom('resource_index')
        .where('workspace_id', '=', ws.workspace_id)
        .execute()
      await syncResourceIndex(t.db.db, ws.workspace_id, { all: true })
      assert.deepEqual(await indexOf(ws.workspace_id), stored)
      const words = new Set(
        (
          await t.db.db
            .selectFrom('title_words')
            .select('word')
            .where('workspace_id', '=', ws.workspace_id)
            .execute()
        ).map(({ word }) => word),
      )
      for (const word of await titleWordsOf(ws.workspace_id))
        assert.ok(words.has(word), `the vocabulary lacks "${word}"`)
    }),
    { numRuns: PROPERTY_RUNS, ...PROPERTY_SETTINGS },
  )
})

// Every column of the workspace's index rows, the search vector as text.
async function indexOf(workspaceId: string) {
  return t.db.db
    .selectFrom('resource_index')
    .select([
      'id',
      'type',
      'project_id',
      'title',
      'body',
      'ws_visible',
      'acl',
      'created_at',
      'updated_at',
      sql<string>`tsv::text`.as('tsv'),
    ])
    .where('workspace_id', '=', workspaceId)
    .orderBy('id')
    .execute()
}

// The words of the index's titles that the vocabulary keeps (four letters or more).
async function titleWordsOf(workspaceId: string): Promise<string[]> {
  const rows = await sql<{ word: string }>`select distinct w.word
    from resource_index r, unnest(tsvector_to_array(to_tsvector('simple', r.title))) as w(word)
    where r.workspace_id = ${workspaceId} and length(w.word) >= 4`.execute(t.db.db)
  return rows.rows.map(({ word }) => word)
}
