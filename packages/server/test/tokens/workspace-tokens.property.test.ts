import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { ALL_READ_SCOPES, importOk } from '../harness/bundles.ts'
import { submitDashboardForm } from '../harness/dashboard-form.ts'
import type { World } from '../harness/oracle.ts'
import { World as Oracle } from '../harness/oracle.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { worldArbitrary } from '../harness/world-arbitrary.ts'

// Workspace tokens as actors (docs/permissions.md, "What a credential reaches"): in random
// workspaces, every person tries to mint a token for every integration on the dashboard (only
// owners and admins reach the page).
// It is made exactly when the oracle says the maker opens everything the integration does, and
// then nothing the token opens is beyond what its maker could open.

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

// Mints a token for `integration` as `person` on the dashboard: its secret, or the page's status.
async function mint(
  result: ImportResult,
  person: string,
  integration: string,
): Promise<string | number> {
  const posted = await submitDashboardForm(
    t,
    { workspaceId: result.workspace_id, personId: result.ids[person] as string },
    '/settings/tokens',
    [
      ['name', `${person} for ${integration}`],
      ['integration', result.ids[integration] as string],
      ...ALL_READ_SCOPES.map((scope) => ['scopes', scope] as [string, string]),
    ],
  )
  if (posted.status !== 201) return posted.status
  const secret = /wg_wst_[A-Za-z0-9_-]+/.exec(posted.body)?.[0]
  assert.ok(secret, 'the page shows the secret once')
  return secret
}

// Whether `wider` opens every resource, person and team `narrower` opens.
const opensAllOf = (world: World, wider: string, narrower: string) =>
  world.allKeys().every((key) => !world.canOpen(narrower, key) || world.canOpen(wider, key))

test('a workspace token is made only by someone who opens all its integration does, and opens nothing more', async () => {
  await fc.assert(
    fc.asyncProperty(worldArbitrary(), async (bundle) => {
      const result = await importOk(t.db.db, bundle)
      const world = new Oracle(bundle)
      fc.pre(world.integrations.size > 0)
      for (const [maker, role] of world.roles) {
        for (const integration of world.integrations) {
          const minted = await mint(result, maker, integration)
          if (role !== 'owner' && role !== 'admin') {
            assert.equal(minted, 404, `${maker} (${role}) reached the tokens page`)
            continue
          }
          if (!opensAllOf(world, maker, integration)) {
            assert.equal(minted, 403, `${maker} minted a token for ${integration}`)
            continue
          }
          assert.equal(typeof minted, 'string', `${maker} for ${integration}: ${minted}`)
          const token = client(t.app, minted as string)
          for (const key of world.allKeys()) {
            const read = await token.get(`/v1/resources/${result.ids[key]}`)
            const expected = world.canOpen(integration, key) ? 200 : 404
            assert.equal(read.status, expected, `${maker}'s token for ${integration} on ${key}`)
            if (read.status === 200) assert.ok(world.canOpen(maker, key))
          }
        }
      }
    }),
    { numRuns: Math.max(4, Math.floor(PROPERTY_RUNS / 2)), ...PROPERTY_SETTINGS },
  )
})
