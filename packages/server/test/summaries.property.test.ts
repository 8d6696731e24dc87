import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { importOk } from './harness/bundles.ts'
import { checkSummaries } from './harness/check-summaries.ts'
import { World } from './harness/oracle.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from './harness/property-settings.ts'
import { startTestApp, type TestApp } from './harness/test-app.ts'
import { worldArbitrary } from './harness/world-arbitrary.ts'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

// Budgets from the smallest allowed to generous, taken in turn by the summaries of each world.
const budgets = fc.array(fc.integer({ min: 100, max: 5000 }), { minLength: 1, maxLength: 40 })

test('any budget from 100 tokens up fits, and a summary shows only what the caller may open', async () => {
  await fc.assert(
    fc.asyncProperty(worldArbitrary(), budgets, async (bundle, maxTokens) => {
      const result = await importOk(t.db.db, bundle)
      await checkSummaries(t.app, new World(bundle), result, maxTokens)
    }),
    { numRuns: Math.max(4, Math.floor(PROPERTY_RUNS / 2)), ...PROPERTY_SETTINGS },
  )
})
