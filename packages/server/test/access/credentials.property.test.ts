import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.ts'
import { ALL_READ_SCOPES, importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import { appTokens } from '../harness/oauth-client-requests.ts'
import {
  confidentialApp,
  type ListeningTestApp,
  startListeningTestApp,
} from '../harness/oauth-flow.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { type Receiver, startReceiver } from '../harness/receiver.ts'
import { allPages, client } from '../harness/test-app.ts'

// Random credential histories of one person (docs/permissions.md, "What a credential reaches"):
// keys minted from keys and from an OAuth app's token with narrower scopes, fences and ends,
// rotations with and without overlap, revocations, endpoints registered and then changed by other
// credentials, and time passing. A model says what each credential and endpoint reaches and which
// still work; then nothing an endpoint delivers, no list a credential reads (endpoints, keys,
// deliveries, tasks) and no refusal differs from it.

const PASSWORD = 'correct horse battery staple'
const WEB_URI = 'https://app.example.test/cb'
const SCOPES = ['task:read', 'comment:read', 'task:write', 'webhook:manage', 'token:manage']
const PROJECTS = ['open', 'secret'] as const
const END_MS = 60_000
const OVERLAP_S = 60
const LATER_MS = 2 * END_MS

let t: ListeningTestApp
let ws: ImportResult
let web: { id: string; secret: string }
let receiver: Receiver
let dispatcher: WebhookDispatcher
const root = () => client(t.app, tokenOf(ws, 'root'))
const now = () => t.clock.now().getTime()

before(async () => {
  t = await startListeningTestApp({
    WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true',
    OAUTH_SIGN_INS_PER_MINUTE: '100000',
  })
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  bundle.api_keys = [
    {
      key: 'root',
      person: 'alice',
      scopes: [...ALL_READ_SCOPES, ...SCOPES, 'comment:write'],
    },
  ]
  ws = await importOk(t.db.db, bundle)
  web = await confidentialApp(t.db.db, WEB_URI)
  receiver = await startReceiver()
  // The receiver always answers at once; a short timeout only fails a delivery on a loaded
  // machine (it did: an endpoint heard nothing after its one attempt timed out).
  dispatcher = new WebhookDispatcher(t.deps, { random: () => 0.5 })
})
after(async () => {
  await dispatcher.stop(0)
  await receiver.close()
  await t.close()
})

/** What a credential or an endpoint reaches: scopes, and a fence of project keys (null: none). */
interface Reach {
  scopes: string[]
  fence: string[] | null
}

/** A credential of the model: whether it works and what it reaches follow from these alone. */
interface Credential extends Reach {
  kind: 'key' | 'grant'
  id: string
  token: string
  revoked: boolean
  /** When it stops on its own (its end, or a rotation's overlap), in clock milliseconds. */
  endsAt: number | null
  /** The end it was made with, which what it makes and its successor never outlive. */
  validUntil: number | null
  /** The credentials it ends with. */
  madeWith: string[]
}

/** An endpoint of the model. */
interface Endpoint extends Reach {
  id: string
  label: string
  credential: Credential
}

const fenceChoice = fc.option(fc.subarray([...PROJECTS], { minLength: 1 }), { nil: null })
// Weighted so that every run grows a family of credentials before it prunes one.
const op = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('mint' as const),
      from: fc.nat(),
      scopes: fc.subarray(SCOPES, { minLength: 1 }),
      fence: fenceChoice,
      ends: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('rotate' as const),
      which: fc.nat(),
      by: fc.nat(),
      overlap: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('revoke' as const), which: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('register' as const), which: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('change' as const), endpoint: fc.nat(), by: fc.nat() }),
  },
)

const within = (inner: readonly string[], outer: readonly string[]) =>
  inner.every((item) => outer.includes(item))
const narrow = (maker: string[] | null, asked: string[] | null): string[] | null =>
  maker === null ? asked : asked === null ? maker : asked.filter((p) => maker.includes(p))
const earlier = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.min(a, b)
/** The acting credential covers what a thing reaches: its scopes, and a fence no narrower. */
const covers = (by: Reach, thing: Reach) =>
  within(thing.scopes, by.scopes) &&
  (by.fence === null || (thing.fence !== null && within(thing.fence, by.fence)))

test('whatever acts for a person acts within what made it and what acts now, and is seen only through credentials that cover it', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(op, { minLength: 6, maxLength: 20 }),
      fc.option(fc.nat(), { nil: null }),
      async (ops, laterAt) => {
        await t.db.db.updateTable('webhook_endpoints').set({ deleted_at: new Date() }).execute()
        await t.db.db.deleteFrom('oauth_artifacts').where('client_id', '=', web.id).execute()
        const credentials: Credential[] = [await appGrant()]
        const endpoints: Endpoint[] = []
        const byId = (id: string) => credentials.find((c) => c.id === id)
        // Works: not revoked, not ended, and so is everything it was made with, transitively
        // (a rotation can make two keys end with each other: each is looked at once).
        const works = (c: Credential, seen = new Set<string>()): boolean => {
          if (seen.has(c.id)) return true
          seen.add(c.id)
          return (
            !c.revoked &&
            (c.endsAt === null || c.endsAt > now()) &&
            c.madeWith.every((id) => {
              const maker = byId(id)
              return maker !== undefined && works(maker, seen)
            })
          )
        }
        const pick = (i: number) => credentials[i % credentials.length] as Credential
        const as = (c: Credential) => client(t.app, c.token)
        // The refusal every step gives first: a credential that does not work, then a scope.
        const refused = (c: Credential, scope: string) =>
          !works(c) ? 401 : c.scopes.includes(scope) ? null : 403

        for (const [index, step] of ops.entries()) {
          if (laterAt !== null && index === laterAt % ops.length) t.clock.advance(LATER_MS)
          if (step.op === 'mint') {
            const from = pick(step.from)
            const asked = step.ends ? now() + END_MS : null
            const made = await as(from).post('/v1/api-keys', {
              name: 'minted',
              scopes: step.scopes,
              ...(step.fence && { project_ids: step.fence.map((p) => ws.ids[p]) }),
              ...(asked !== null && { expires_at: new Date(asked).toISOString() }),
            })
            const expected =
              refused(from, 'token:manage') ??
              (!within(step.scopes, from.scopes)
                ? 403
                : step.fence && from.fence && !within(step.fence, from.fence)
                  ? 422
                  : 201)
            assert.equal(made.status, expected, `mint: ${made.body}`)
            if (made.status !== 201) continue
            const validUntil = earlier(asked, from.validUntil)
            credentials.push({
              kind: 'key',
              id: made.json.id,
              token: made.json.token,
              revoked: false,
              endsAt: validUntil,
              validUntil,
              madeWith: [...new Set([...from.madeWith, from.id])],
              scopes: step.scopes,
              fence: narrow(from.fence, step.fence),
            })
          } else if (step.op === 'rotate') {
            const old = pick(step.which)
            const by = pick(step.by)
            if (old.kind !== 'key') continue
            const rotated = await as(by).post(`/v1/api-keys/${old.id}/rotate`, {
              overlap_seconds: step.overlap ? OVERLAP_S : 0,
            })
            const expected =
              refused(by, 'token:manage') ?? (!covers(by, old) ? 404 : works(old) ? 200 : 409)
            assert.equal(rotated.status, expected, `rotate: ${rotated.body}`)
            if (rotated.status !== 200) continue
            const validUntil = earlier(old.validUntil, by.validUntil)
            const successor: Credential = {
              kind: 'key',
              id: rotated.json.id,
              token: rotated.json.token,
              revoked: false,
              endsAt: validUntil,
              validUntil,
              madeWith: [...new Set([...old.madeWith, ...by.madeWith, by.id])].filter(
                (id) => id !== old.id,
              ),
              scopes: old.scopes,
              fence: narrow(by.fence, old.fence),
            }
            credentials.push(successor)
            old.endsAt = earlier(old.endsAt, now() + (step.overlap ? OVERLAP_S * 1000 : 0))
            // What was made with the old key now ends with its successor, and what made that.
            for (const made of credentials)
              if (made.madeWith.includes(old.id) && !made.revoked)
                made.madeWith = [
                  ...new Set([
                    ...made.madeWith.map((id) => (id === old.id ? successor.id : id)),
                    ...successor.madeWith,
                  ]),
                ].filter((id) => id !== made.id)
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
          } else if (step.op === 'register') {
            const owner = pick(step.which)
            const label = `e${endpoints.length}`
            const made = await as(owner).post('/v1/webhooks', {
              url: `${receiver.url}?endpoint=${label}`,
              events: ['task.created', 'comment.created'],
            })
            assert.equal(made.status, refused(owner, 'webhook:manage') ?? 201, made.body)
            if (made.status !== 201) continue
            endpoints.push({
              id: made.json.id,
              label,
              credential: owner,
              scopes: owner.scopes,
              fence: owner.fence,
            })
          } else {
            const endpoint = endpoints[step.endpoint % Math.max(endpoints.length, 1)]
            if (!endpoint) continue
            const by = pick(step.by)
            const changed = await as(by).patch(`/v1/webhooks/${endpoint.id}`, {
              description: `changed by ${by.id}`,
              status: 'active',
            })
            const expected = refused(by, 'webhook:manage') ?? (covers(by, endpoint) ? 200 : 404)
            assert.equal(changed.status, expected, `change: ${changed.body}`)
            if (changed.status !== 200) continue
            endpoint.credential = by
            endpoint.scopes = endpoint.scopes.filter((scope) => by.scopes.includes(scope))
            endpoint.fence = narrow(endpoint.fence, by.fence)
          }
        }

        // Something happens in each project, outside every project, and in a comment.
        receiver.received.length = 0
        const subjects = new Map<string, { type: string; project: string | null }>()
        for (const project of [...PROJECTS, null]) {
          const task = await root().post('/v1/tasks', {
            title: 'Ship it',
            ...(project && { project_id: ws.ids[project] }),
          })
          assert.equal(task.status, 201, task.body)
          subjects.set(task.json.id, { type: 'task', project })
          if (project !== 'secret') continue
          const comment = await root().post('/v1/comments', {
            resource_id: task.json.id,
            body: 'A remark',
          })
          assert.equal(comment.status, 201, comment.body)
          subjects.set(comment.json.id, { type: 'comment', project })
        }
        await dispatcher.drain()

        // Each endpoint hears exactly what it reaches, while its credential works.
        for (const endpoint of endpoints) {
          const heard = receiver.received
            .filter(
              (r) => new URL(r.url, 'http://x').searchParams.get('endpoint') === endpoint.label,
            )
            .map((r) => r.json.data.object.id as string)
            .sort()
          const expected = works(endpoint.credential)
            ? [...subjects]
                .filter(
                  ([, s]) =>
                    endpoint.scopes.includes(`${s.type}:read`) &&
                    (endpoint.fence === null ||
                      (s.project !== null && endpoint.fence.includes(s.project))),
                )
                .map(([id]) => id)
                .sort()
            : []
          assert.deepEqual(heard, expected, endpoint.label)
          const row = await t.db.db
            .selectFrom('webhook_endpoints')
            .select(['status', 'disabled_reason'])
            .where('id', '=', endpoint.id)
            .executeTakeFirstOrThrow()
          assert.deepEqual(
            row,
            works(endpoint.credential)
              ? { status: 'active', disabled_reason: null }
              : { status: 'disabled', disabled_reason: 'credential_revoked' },
            endpoint.label,
          )
        }

        // Every credential that works sees exactly the endpoints and keys it covers, and reads
        // nothing outside its fence; what it sees of deliveries is what those endpoints reach.
        const keys = credentials.filter((c) => c.kind === 'key')
        for (const c of credentials.filter((c) => works(c))) {
          if (c.scopes.includes('webhook:manage')) {
            const listed = await allPages(as(c), '/v1/webhooks', 100)
            const mine = endpoints.filter((e) => covers(c, e))
            assert.deepEqual(
              listed.map((e) => e.id).sort(),
              mine.map((e) => e.id).sort(),
              `endpoints seen by ${c.id}`,
            )
            for (const endpoint of mine) {
              const deliveries = await allPages(
                as(c),
                `/v1/webhooks/${endpoint.id}/deliveries`,
                100,
              )
              for (const delivery of deliveries) {
                const detail = await as(c).get(
                  `/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}`,
                )
                const subject = JSON.parse(detail.json.attempts[0]?.request_body ?? '{}')?.data
                  ?.object?.id as string | undefined
                const known = subject === undefined ? undefined : subjects.get(subject)
                if (known === undefined) continue
                assert.ok(covers(c, { scopes: [`${known.type}:read`], fence: null }))
                assert.ok(c.fence === null || c.fence.includes(known.project as string))
              }
            }
          }
          if (c.scopes.includes('token:manage')) {
            const listed = new Set(
              (await allPages(as(c), '/v1/tokens?type=api_key', 100)).map((k) => k.id),
            )
            assert.deepEqual(
              keys.filter((k) => listed.has(k.id)).map((k) => k.id),
              keys.filter((k) => covers(c, k)).map((k) => k.id),
              `keys seen by ${c.id}`,
            )
          }
          if (c.scopes.includes('task:read')) {
            for (const task of await allPages(as(c), '/v1/tasks', 100)) {
              const project = PROJECTS.find((p) => ws.ids[p] === task.project_id) ?? null
              assert.ok(
                c.fence === null || (project !== null && c.fence.includes(project)),
                `${c.id} read a task outside its fence`,
              )
            }
          }
        }
      },
    ),
    { numRuns: Math.max(4, Math.floor(PROPERTY_RUNS / 2)), ...PROPERTY_SETTINGS },
  )
})

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
    endsAt: null,
    validUntil: null,
    madeWith: [],
    scopes: SCOPES,
    fence: null,
  }
}
