import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { importOk } from './harness/bundles.ts'
import { checkWorld } from './harness/check-world.ts'
import { World } from './harness/oracle.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from './harness/property-settings.ts'
import { startTestApp, type TestApp } from './harness/test-app.ts'
import { worldArbitrary } from './harness/world-arbitrary.ts'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

test('every list and record matches the oracle for every principal, at page sizes 1, 2 and 20', async () => {
  await fc.assert(
    fc.asyncProperty(worldArbitrary(), async (bundle) => {
      const result = await importOk(t.db.db, bundle)
      await checkWorld(t.app, new World(bundle), result, { pageSizes: [1, 2, 20] })
    }),
    { numRuns: PROPERTY_RUNS, ...PROPERTY_SETTINGS },
  )
})
