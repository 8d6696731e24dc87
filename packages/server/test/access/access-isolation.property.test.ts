import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { importOk } from '../harness/bundles.ts'
import { checkWorld } from '../harness/check-world.ts'
import { World } from '../harness/oracle.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'
import { worldArbitrary } from '../harness/world-arbitrary.ts'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

test('two workspaces never see each other', async () => {
  await fc.assert(
    fc.asyncProperty(worldArbitrary('a'), worldArbitrary('b'), async (a, b) => {
      const first = await importOk(t.db.db, a)
      const second = await importOk(t.db.db, b)
      await checkWorld(t.app, new World(a), first, {
        pageSizes: [20],
        foreignIds: new Set(Object.values(second.ids)),
      })
      await checkWorld(t.app, new World(b), second, {
        pageSizes: [20],
        foreignIds: new Set(Object.values(first.ids)),
      })
    }),
    { numRuns: Math.max(3, Math.floor(PROPERTY_RUNS / 3)), ...PROPERTY_SETTINGS },
  )
})
