import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { fenceArbitrary, importWithFence } from '../harness/fenced-viewers.ts'
import { oracleReasons, reasonsSeenBy } from '../harness/oracle-reasons.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { worldArbitrary } from '../harness/world-arbitrary.ts'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

const withoutRequestId = (json: Record<string, unknown>) => ({ ...json, request_id: null })

test('access reasons agree with the oracle for every principal, a fenced key and every resource; hidden ids are 404', async () => {
  await fc.assert(
    fc.asyncProperty(worldArbitrary(), fc.nat(), fenceArbitrary, async (bundle, pick, fence) => {
      const { result, world } = await importWithFence(t, bundle, fence)
      const keyOf = new Map(Object.entries(result.ids).map(([key, id]) => [id, key]))
      const tokens = { ...result.api_keys, ...result.workspace_tokens }
      // Every person and integration, and a fenced key: its person's reasons, inside the fence.
      const principals = world.viewers()
      const as = (who: string) => client(t.app, tokens[`${who}-key`]?.token)
      const reasonKeys = (reasons: { kind: string; via_id?: string }[]) =>
        reasons
          .map((r) => (r.via_id === undefined ? r.kind : `${r.kind}:${keyOf.get(r.via_id)}`))
          .sort()
      const unknown = await as(principals[0] as string).get(
        '/v1/resources/tsk_00000000000000000000000000/access',
      )
      const admins = principals.filter((who) =>
        ['owner', 'admin'].includes(`${world.roles.get(who)}`),
      )
      const people = [...world.roles.keys()]
      for (const who of principals) {
        for (const key of world.allKeys()) {
          const expected = world.canOpen(who, key)
            ? oracleReasons(world, world.actorOf(who), key)
            : []
          // The invariant the endpoint rests on: reasons exactly when the resource is open.
          assert.equal(expected.length > 0, world.canOpen(who, key), `oracle ${who} ${key}`)
          const reply = await as(who).get(`/v1/resources/${result.ids[key]}/access`)
          if (expected.length === 0) {
            assert.equal(reply.status, 404, `${who} must not open ${key}: ${reply.body}`)
            assert.deepEqual(withoutRequestId(reply.json), withoutRequestId(unknown.json))
            continue
          }
          assert.equal(reply.status, 200, `${who} ${key}: ${reply.body}`)
          // A fenced key sees its own reasons, naming only what its fence lets it open.
          assert.deepEqual(
            reasonKeys(reply.json.reasons),
            reasonsSeenBy(world, who, expected, false),
            `${who} on ${key}`,
          )
        }
      }
      // An owner or admin asking about one other person, for everything the asker may open.
      const asker = admins[pick % Math.max(admins.length, 1)]
      const about = people[pick % people.length] as string
      if (asker === undefined) return
      for (const key of world.allKeys()) {
        const reply = await as(asker).get(
          `/v1/resources/${result.ids[key]}/access?person_id=${result.ids[about]}`,
        )
        if (!world.canOpen(asker, key)) {
          assert.equal(reply.status, 404, `${asker} asking about ${key}`)
          continue
        }
        assert.equal(reply.status, 200, reply.body)
        // Reasons through what the asker cannot open are left out whole.
        const reasons = world.canOpen(about, key) ? oracleReasons(world, about, key) : []
        assert.deepEqual(
          reasonKeys(reply.json.reasons),
          reasonsSeenBy(world, asker, reasons, about !== asker),
          `${asker} asking why ${about} opens ${key}`,
        )
      }
    }),
    { numRuns: PROPERTY_RUNS, ...PROPERTY_SETTINGS },
  )
})
