import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { syncResourceIndex } from '../../src/access/resource-index.ts'
import { applyMutation, mutationArbitrary } from '../harness/access-mutations.ts'
import { checkWorld } from '../harness/check-world.ts'
import { fenceArbitrary, importWithFence } from '../harness/fenced-viewers.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'
import { worldArbitrary } from '../harness/world-arbitrary.ts'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

test('changing memberships, roles, visibility, shares and placement moves results exactly as the oracle says', async () => {
  await fc.assert(
    fc.asyncProperty(
      worldArbitrary(),
      fc.array(mutationArbitrary, { minLength: 1, maxLength: 6 }),
      fenceArbitrary,
      async (bundle, mutations, fence) => {
        // A fenced key keeps its fence while its person's access changes under it.
        const { result, world } = await importWithFence(t, bundle, fence)
        for (const mutation of mutations) {
          await applyMutation(
            t.db.db,
            result.workspace_id,
            result.ids,
            world,
            mutation,
            t.clock.now(),
          )
          // The very next request sees the change: no cache outlives the ACL epoch.
          await checkWorld(t.app, world, result, { pageSizes: [20] })
        }
        // The index stays a pure function of the source rows: recompiling it changes nothing.
        const before = await t.db.db
          .selectFrom('resource_index')
          .select(['id', 'ws_visible', 'acl', 'project_id'])
          .where('workspace_id', '=', result.workspace_id)
          .orderBy('id')
          .execute()
        await syncResourceIndex(t.db.db, result.workspace_id, { all: true })
        const after = await t.db.db
          .selectFrom('resource_index')
          .select(['id', 'ws_visible', 'acl', 'project_id'])
          .where('workspace_id', '=', result.workspace_id)
          .orderBy('id')
          .execute()
        assert.deepEqual(after, before)
      },
    ),
    { numRuns: PROPERTY_RUNS, ...PROPERTY_SETTINGS },
  )
})
