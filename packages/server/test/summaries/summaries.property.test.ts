import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { checkSummaries } from '../harness/check-summaries.ts'
import { fenceArbitrary, importWithFence } from '../harness/fenced-viewers.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'
import { worldArbitrary } from '../harness/world-arbitrary.ts'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

// Budgets from the smallest allowed to generous, taken in turn by the summaries of each world.
const budgets = fc.array(fc.integer({ min: 100, max: 5000 }), { minLength: 1, maxLength: 40 })

test('any budget from 100 tokens up fits, and a summary shows only what the caller may open', async () => {
  await fc.assert(
    fc.asyncProperty(
      worldArbitrary(),
      budgets,
      fenceArbitrary,
      async (bundle, maxTokens, fence) => {
        const { result, world } = await importWithFence(t, bundle, fence)
        await checkSummaries(t.app, world, result, maxTokens)
      },
    ),
    { numRuns: Math.max(4, Math.floor(PROPERTY_RUNS / 2)), ...PROPERTY_SETTINGS },
  )
})
