import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import { ALL_READ_SCOPES, ALL_WRITE_SCOPES, importOk } from '../harness/bundles.ts'
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { World } from '../harness/oracle.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { contentState } from '../harness/row-counts.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'
import { worldArbitrary } from '../harness/world-arbitrary.ts'

// The MCP write tools on random workspaces: aimed at anything the caller cannot open, each answers
// exactly as it does for an id that does not exist, and writes nothing. An error that differed
// (a message, a field) would tell an agent that the hidden thing is there.

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

const UNKNOWN = {
  project: 'prj_00000000000000000000000000',
  task: 'tsk_00000000000000000000000000',
  kr: 'kr_00000000000000000000000000',
}

test('write tools answer a hidden target exactly like an unknown one, and write nothing', async () => {
  await fc.assert(
    fc.asyncProperty(worldArbitrary('w'), async (plain) => {
      const bundle = withWriteKeys(plain)
      const result = await importOk(t.db.db, bundle)
      const world = new World(bundle)
      const id = (key: string) => result.ids[key] as string
      const before = await contentState(t.db.db)
      for (const person of bundle.people) {
        const token = result.api_keys[`${person.key}-writer`]?.token as string
        const text = async (name: string, args: Record<string, unknown>) => {
          const answer = await callToolInProcess(t.app, token, name, args)
          assert.equal(answer.isError, true, `${person.key} ${name} ${JSON.stringify(args)}`)
          return JSON.stringify(answer.content)
        }
        const unknown = {
          project: await text('create_task', { title: 'x', project_id: UNKNOWN.project }),
          update: await text('update_task', { task_id: UNKNOWN.task, status: 'done' }),
          comment: await text('add_comment', { resource_id: UNKNOWN.task, body: 'x' }),
          checkin: await text('okr_checkin', { key_result_id: UNKNOWN.kr, value: 1 }),
        }
        for (const key of world.projects.keys()) {
          if (world.canOpen(person.key, key)) continue
          const answer = await text('create_task', { title: 'x', project_id: id(key) })
          assert.equal(answer, unknown.project, `${person.key} learns of project ${key}`)
        }
        for (const key of world.tasks.keys()) {
          if (world.canOpen(person.key, key)) continue
          const update = await text('update_task', { task_id: id(key), status: 'done' })
          assert.equal(update, unknown.update)
          const comment = await text('add_comment', { resource_id: id(key), body: 'x' })
          assert.equal(comment.replace(/tsk_\w+/g, 'ID'), unknown.comment.replace(/tsk_\w+/g, 'ID'))
        }
        for (const [key, okr] of world.okrs) {
          if (world.canOpen(person.key, key)) continue
          for (const kr of okr.keyResults) {
            const answer = await text('okr_checkin', { key_result_id: id(kr), value: 1 })
            assert.equal(answer, unknown.checkin, `${person.key} learns of key result ${kr}`)
          }
        }
      }
      // Tokens note when they were last used; nothing else may change.
      const { tokens: _, ...after } = await contentState(t.db.db)
      const { tokens: __, ...expected } = before
      assert.deepEqual(after, expected)
    }),
    { numRuns: Math.max(3, Math.floor(PROPERTY_RUNS / 3)), ...PROPERTY_SETTINGS },
  )
})

// Every person gets a key that may read and write everything its owner may.
function withWriteKeys(bundle: Bundle): Bundle {
  return {
    ...bundle,
    api_keys: [
      ...(bundle.api_keys ?? []),
      ...bundle.people.map((person) => ({
        key: `${person.key}-writer`,
        person: person.key,
        scopes: [...ALL_READ_SCOPES, ...ALL_WRITE_SCOPES],
      })),
    ],
  }
}
