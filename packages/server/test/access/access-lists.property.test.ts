import { after, before, test } from 'node:test'
import fc from 'fast-check'
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

test('every list and record matches the oracle for every principal and a fenced key, at page sizes 1, 2 and 20', async () => {
  await fc.assert(
    fc.asyncProperty(worldArbitrary(), fenceArbitrary, async (bundle, fence) => {
      const { result, world } = await importWithFence(t, bundle, fence)
      await checkWorld(t.app, world, result, { pageSizes: [1, 2, 20] })
    }),
    { numRuns: PROPERTY_RUNS, ...PROPERTY_SETTINGS },
  )
})
