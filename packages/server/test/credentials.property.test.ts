import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { ImportResult } from '../src/bundle/import-bundle.ts'
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher.ts'
import { ALL_READ_SCOPES, importOk, smallBundle, tokenOf } from './harness/bundles.ts'
import { appTokens } from './harness/oauth-client-requests.ts'
import {
  confidentialApp,
  type ListeningTestApp,
  startListeningTestApp,
} from './harness/oauth-flow.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from './harness/property-settings.ts'
import { type Receiver, startReceiver } from './harness/receiver.ts'
import { client } from './harness/test-app.ts'

// Webhook endpoints after random credential histories: keys minted from keys and from an OAuth
// app's token, rotations with and without overlap, revocations of keys and of the app's grant.
// A model says which credentials still work; an endpoint receives exactly while the credential it
// is bound to works, and is disabled with reason credential_revoked once it does not.

const PASSWORD = 'correct horse battery staple'
const WEB_URI = 'https://app.example.test/cb'
const SCOPES = ['task:read', 'task:write', 'webhook:manage', 'token:manage']

let t: ListeningTestApp
let ws: ImportResult
let web: { id: string; secret: string }
let receiver: Receiver
let dispatcher: WebhookDispatcher
const root = () => client(t.app, tokenOf(ws, 'root'))

before(async () => {
  t = await startListeningTestApp({
    WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true',
    OAUTH_SIGN_INS_PER_MINUTE: '100000',
  })
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  bundle.api_keys = [{ key: 'root', person: 'alice', scopes: [...ALL_READ_SCOPES, ...SCOPES] }]
  ws = await importOk(t.db.db, bundle)
  web = await confidentialApp(t.db.db, WEB_URI)
  receiver = await startReceiver()
  dispatcher = new WebhookDispatcher(t.deps, { random: () => 0.5, timeoutMs: 500 })
})
after(async () => {
  await dispatcher.stop(0)
  await receiver.close()
  await t.close()
})

/** A credential of the model: what works follows from these facts alone. */
interface Credential {
  kind: 'key' | 'grant'
  id: string
  token: string
  revoked: boolean
  /** A key rotated without overlap has expired. */
  expired: boolean
  /** The grants a key ends with. */
  grants: string[]
}

const op = fc.oneof(
  fc.record({ op: fc.constant('mint' as const), from: fc.nat() }),
  fc.record({ op: fc.constant('rotate' as const), which: fc.nat(), overlap: fc.boolean() }),
  fc.record({ op: fc.constant('revoke' as const), which: fc.nat() }),
  fc.record({ op: fc.constant('register' as const), which: fc.nat() }),
)

test('an endpoint receives exactly while the credential it is bound to works', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 2, maxLength: 12 }), async (ops) => {
      await t.db.db.updateTable('webhook_endpoints').set({ deleted_at: new Date() }).execute()
      await t.db.db.deleteFrom('oauth_artifacts').where('client_id', '=', web.id).execute()
      const credentials: Credential[] = [await appGrant()]
      const endpoints: { id: string; label: string; credential: Credential }[] = []
      const works = (c: Credential): boolean =>
        !c.revoked &&
        !c.expired &&
        c.grants.every((grant) => credentials.some((g) => g.id === grant && works(g)))
      const pick = (i: number) => credentials[i % credentials.length] as Credential

      for (const step of ops) {
        if (step.op === 'mint') {
          const from = pick(step.from)
          const made = await client(t.app, from.token).post('/v1/api-keys', {
            name: 'minted',
            scopes: SCOPES,
          })
          if (!works(from)) {
            assert.equal(made.status, 401, made.body)
            continue
          }
          assert.equal(made.status, 201, made.body)
          credentials.push(
            key(made.json, [...from.grants, ...(from.kind === 'grant' ? [from.id] : [])]),
          )
        } else if (step.op === 'rotate') {
          const old = pick(step.which)
          if (old.kind !== 'key') continue
          const rotated = await client(t.app, old.token).post(`/v1/api-keys/${old.id}/rotate`, {
            overlap_seconds: step.overlap ? 600 : 0,
          })
          if (!works(old)) {
            assert.equal(rotated.status, 401, rotated.body)
            continue
          }
          assert.equal(rotated.status, 200, rotated.body)
          const successor = key(rotated.json, old.grants)
          credentials.push(successor)
          old.expired = !step.overlap
          for (const endpoint of endpoints)
            if (endpoint.credential === old) endpoint.credential = successor
        } else if (step.op === 'revoke') {
          const target = pick(step.which)
          const url =
            target.kind === 'key'
              ? `/v1/tokens/${target.id}/revoke`
              : `/v1/oauth-grants/${target.id}/revoke`
          const revoked = await root().post(url)
          if (target.kind === 'grant' && target.revoked) assert.equal(revoked.status, 404)
          else assert.equal(revoked.status, 200, revoked.body)
          target.revoked = true
        } else {
          const owner = pick(step.which)
          const label = `e${endpoints.length}`
          const made = await client(t.app, owner.token).post('/v1/webhooks', {
            url: `${receiver.url}?endpoint=${label}`,
            events: ['task.created'],
          })
          if (!works(owner)) {
            assert.equal(made.status, 401, made.body)
            continue
          }
          assert.equal(made.status, 201, made.body)
          endpoints.push({ id: made.json.id, label, credential: owner })
        }
      }

      receiver.received.length = 0
      const task = await root().post('/v1/tasks', { title: 'Ship it', project_id: ws.ids.open })
      assert.equal(task.status, 201, task.body)
      await dispatcher.drain()
      const reached = receiver.received.map((r) =>
        new URL(r.url, 'http://x').searchParams.get('endpoint'),
      )
      const expected = endpoints.filter((e) => works(e.credential)).map((e) => e.label)
      assert.deepEqual(reached.sort(), expected.sort())
      for (const endpoint of endpoints) {
        const row = await t.db.db
          .selectFrom('webhook_endpoints')
          .select(['status', 'disabled_reason'])
          .where('id', '=', endpoint.id)
          .executeTakeFirstOrThrow()
        const live = works(endpoint.credential)
        assert.deepEqual(
          row,
          live
            ? { status: 'active', disabled_reason: null }
            : { status: 'disabled', disabled_reason: 'credential_revoked' },
          `${endpoint.label}`,
        )
      }
    }),
    { numRuns: Math.max(4, Math.floor(PROPERTY_RUNS / 2)), ...PROPERTY_SETTINGS },
  )
})

function key(json: { id: string; token: string }, grants: string[]): Credential {
  return { kind: 'key', id: json.id, token: json.token, revoked: false, expired: false, grants }
}

// A new grant of the app for alice, with its access token.
async function appGrant(): Promise<Credential> {
  const { tokens } = await appTokens(t.origin, web, {
    redirectUri: WEB_URI,
    scope: SCOPES.join(' '),
    user: { email: 'alice@example.test', password: PASSWORD },
  })
  const grant = await t.db.db
    .selectFrom('oauth_artifacts')
    .select('grant_id')
    .where('model', '=', 'Grant')
    .where('client_id', '=', web.id)
    .executeTakeFirstOrThrow()
  return {
    kind: 'grant',
    id: grant.grant_id as string,
    token: tokens.access_token,
    revoked: false,
    expired: false,
    grants: [],
  }
}
