import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { ManualClock } from '../../../src/lib/clock.ts'
import { fenceArbitrary, importWithFence } from '../../harness/fenced-viewers.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../../harness/property-settings.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'
import { worldArbitrary } from '../../harness/world-arbitrary.ts'

// The change feed of random workspaces, for every principal and a fenced key: followed from the
// start in small pages, exactly the workspace's changes whose resource the oracle says the viewer
// may open (inside the fence), in position order, each once.

// The worlds' times are early January 2026 (comments in February): inside the 30-day window.
const clock = new ManualClock('2026-01-20T00:00:00.000Z')
let t: TestApp
before(async () => {
  t = await startTestApp({ clock })
})
after(() => t.close())

test('the feed shows exactly the changes to what the caller may open, in position order', async () => {
  await fc.assert(
    fc.asyncProperty(worldArbitrary('f'), fenceArbitrary, async (bundle, fence) => {
      const { result, world } = await importWithFence(t, bundle, fence, { now: clock.now() })
      const keyOf = new Map(Object.entries(result.ids).map(([key, id]) => [id, key]))
      const entries = await t.db.db
        .selectFrom('activity')
        .select(['id', 'subject_id'])
        .where('workspace_id', '=', result.workspace_id)
        .orderBy('position')
        .execute()
      for (const who of world.viewers()) {
        const token = (result.api_keys[`${who}-key`] ?? result.workspace_tokens[`${who}-key`])
          ?.token as string
        const api = client(t.app, token)
        const seen: string[] = []
        let query = 'from=start'
        for (let page = 0; page < 1000; page++) {
          const reply = await api.get(`/v1/changes?${query}&limit=4`)
          assert.equal(reply.status, 200, reply.body)
          if (reply.json.data.length === 0) break
          seen.push(...reply.json.data.map((change: { id: string }) => change.id))
          query = `cursor=${encodeURIComponent(reply.json.next_cursor)}`
        }
        const expected = entries
          .filter((entry) => world.canOpen(who, keyOf.get(entry.subject_id) as string))
          .map((entry) => entry.id)
        assert.deepEqual(seen, expected, `${who}'s feed`)
      }
    }),
    { numRuns: PROPERTY_RUNS, ...PROPERTY_SETTINGS },
  )
})
