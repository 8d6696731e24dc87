import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { hashSecret } from '../../../src/access/secrets.ts'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { importOk, tokenOf } from '../../harness/bundles.ts'
import { peopleBundle, peopleTraces } from '../../harness/people-bundle.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'

let t: TestApp
let ws: ImportResult
const id = (key: string) => ws.ids[key] as string
const as = (key: string) => client(t.app, tokenOf(ws, key))
const traces = () => peopleTraces(t.db.db, ws.workspace_id)

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, peopleBundle())
})
after(() => t.close())

test('a member cannot invite (403 forbidden) and nothing is written', async () => {
  const before = await traces()
  const reply = await as('alice-key').post('/v1/invitations', {
    email: 'newbie@example.test',
    role: 'member',
  })
  assert.equal(reply.status, 403, reply.body)
  assert.equal(reply.json.code, 'forbidden')
  assert.match(String(reply.headers['content-type']), /problem\+json/)
  assert.deepEqual(await traces(), before)
  // A guest neither; nor listing or revoking.
  assert.equal(
    (await as('gus-key').post('/v1/invitations', { email: 'x@example.test', role: 'guest' }))
      .status,
    403,
  )
  assert.equal((await as('alice-key').get('/v1/invitations')).status, 403)
  assert.equal(
    (await as('alice-key').delete('/v1/invitations/inv_00000000000000000000000000')).status,
    403,
  )
  assert.deepEqual(await traces(), before)
})

test("a token without people:write gets 403 insufficient_scope, even an admin's", async () => {
  const before = await traces()
  const reply = await as('adam-read').post('/v1/invitations', {
    email: 'newbie@example.test',
    role: 'member',
  })
  assert.equal(reply.status, 403)
  assert.equal(reply.json.code, 'insufficient_scope')
  assert.deepEqual(reply.json.required_scopes, ['people:write'])
  assert.equal((await as('adam-read').get('/v1/invitations')).json.code, 'insufficient_scope')
  assert.deepEqual(await traces(), before)
})

test('an admin invites: 201 with the link once; only its hash is stored; person.invited recorded', async () => {
  const reply = await as('adam-key').post('/v1/invitations', {
    email: 'Nora@Example.test',
    role: 'member',
    name: 'Nora New',
  })
  assert.equal(reply.status, 201, reply.body)
  const { invitation, url, email } = reply.json
  assert.match(invitation.id, /^inv_/)
  assert.equal(invitation.email, 'Nora@Example.test')
  assert.equal(invitation.role, 'member')
  assert.equal(invitation.status, 'pending')
  assert.equal(invitation.inviter_id, id('adam'))
  assert.equal(email, 'not_configured')
  const match = /\/join\/(wg_inv_[0-9A-Za-z]+)$/.exec(url)
  assert.ok(match, url)
  const token = match[1] as string
  assert.ok(url.startsWith(t.deps.config.publicUrl))
  // Seven days.
  assert.equal(
    Date.parse(invitation.expires_at) - Date.parse(invitation.created_at),
    7 * 86_400_000,
  )

  const row = await t.db.db
    .selectFrom('invitations')
    .selectAll()
    .where('id', '=', invitation.id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(row.token_hash, hashSecret(token))
  // The token is nowhere at rest: not in the row, the outbox, the audit log or the stored answers.
  for (const table of ['invitations', 'events', 'audit_log', 'idempotency_keys'] as const) {
    const rows = await t.db.db.selectFrom(table).selectAll().execute()
    assert.ok(!JSON.stringify(rows).includes(token), `the token is in ${table}`)
  }
  const [event] = await t.db.db
    .selectFrom('events')
    .selectAll()
    .where('type', '=', 'person.invited')
    .execute()
  assert.equal(event?.subject_id, invitation.id)
  assert.equal(event?.data.object.email, 'Nora@Example.test')
  const audit = await t.db.db
    .selectFrom('audit_log')
    .selectAll()
    .where('resource_id', '=', invitation.id)
    .execute()
  assert.deepEqual(
    audit.map((entry) => entry.action),
    ['person.invited'],
  )

  // Listed while pending, without the link.
  const list = await as('olive-key').get('/v1/invitations')
  assert.equal(list.status, 200, list.body)
  const listed = list.json.data.find((item: { id: string }) => item.id === invitation.id)
  assert.ok(listed)
  assert.ok(!list.body.includes(token))
  assert.equal('url' in listed, false)
})

test('an email already in the workspace, or already invited, is a 409 that writes nothing', async () => {
  const first = await as('olive-key').post('/v1/invitations', {
    email: 'twice@example.test',
    role: 'guest',
  })
  assert.equal(first.status, 201)
  const before = await traces()
  for (const email of [
    'alice@example.test',
    'ALICE@example.test',
    'twice@example.test',
    ' Twice@Example.test ',
  ]) {
    const reply = await as('olive-key').post('/v1/invitations', {
      email: email.trim(),
      role: 'member',
    })
    assert.equal(reply.status, 409, `${email}: ${reply.body}`)
    assert.equal(reply.json.code, 'conflict')
  }
  assert.deepEqual(await traces(), before)
  // Once revoked, the email may be invited again.
  const revoked = await as('olive-key').delete(`/v1/invitations/${first.json.invitation.id}`)
  assert.equal(revoked.status, 200, revoked.body)
  assert.equal(revoked.json.status, 'revoked')
  assert.equal(
    (await as('olive-key').post('/v1/invitations', { email: 'twice@example.test', role: 'guest' }))
      .status,
    201,
  )
})

test('only an owner invites an admin', async () => {
  const before = await traces()
  const byAdmin = await as('adam-key').post('/v1/invitations', {
    email: 'boss@example.test',
    role: 'admin',
  })
  assert.equal(byAdmin.status, 403)
  assert.equal(byAdmin.json.code, 'forbidden')
  assert.deepEqual(await traces(), before)
  const byOwner = await as('olive-key').post('/v1/invitations', {
    email: 'boss@example.test',
    role: 'admin',
  })
  assert.equal(byOwner.status, 201, byOwner.body)
  // Nobody invites an owner: the schema refuses it.
  const owner = await as('olive-key').post('/v1/invitations', {
    email: 'o2@example.test',
    role: 'owner',
  })
  assert.equal(owner.status, 422)
})

test('bad input is a 4xx that changes nothing', async () => {
  const before = await traces()
  for (const body of [
    { email: 'not an email', role: 'member' },
    { email: 'x@example.test', role: 'king' },
    { email: 'x@example.test' },
    { email: 'x@example.test', role: 'member', name: '   ' },
    { email: 'x@example.test', role: 'member', extra: 1 },
  ]) {
    const reply = await as('olive-key').post('/v1/invitations', body)
    assert.ok(reply.status >= 400 && reply.status < 500, `${JSON.stringify(body)}: ${reply.status}`)
  }
  assert.deepEqual(await traces(), before)
})

test('a replay answers the stored invitation without the link; a dry run writes nothing and shows no link', async () => {
  const headers = { 'idempotency-key': 'invite-once' }
  const body = { email: 'replay@example.test', role: 'member' }
  const dry = await as('olive-key').post('/v1/invitations?dry_run=true', body)
  assert.equal(dry.status, 200, dry.body)
  assert.equal(dry.json.dry_run, true)
  assert.equal(dry.json.result.url, null)
  assert.equal(dry.json.result.invitation.id, null)
  assert.deepEqual(
    dry.json.events.map((event: { type: string }) => event.type),
    ['person.invited'],
  )
  assert.equal(
    (
      await t.db.db
        .selectFrom('invitations')
        .select('id')
        .where('email', '=', 'replay@example.test')
        .execute()
    ).length,
    0,
  )
  const first = await as('olive-key').post('/v1/invitations', body, headers)
  assert.equal(first.status, 201)
  assert.match(first.json.url, /\/join\/wg_inv_/)
  const again = await as('olive-key').post('/v1/invitations', body, headers)
  assert.equal(again.status, 201)
  assert.equal(again.headers['idempotent-replayed'], 'true')
  assert.equal(again.json.url, null)
  assert.equal(again.json.email, null)
  assert.equal(again.json.invitation.id, first.json.invitation.id)
})

test('revoking: unknown ids are 404; accepted ones 409; revoked ones answer as they are', async () => {
  const unknown = await as('olive-key').delete('/v1/invitations/inv_00000000000000000000000000')
  assert.equal(unknown.status, 404)
  const made = await as('olive-key').post('/v1/invitations', {
    email: 'rev@example.test',
    role: 'member',
  })
  const path = `/v1/invitations/${made.json.invitation.id}`
  assert.equal((await as('adam-key').delete(path)).status, 200)
  const twice = await as('adam-key').delete(path)
  assert.equal(twice.status, 200)
  assert.equal(twice.json.status, 'revoked')
  const list = await as('olive-key').get('/v1/invitations?limit=100')
  assert.ok(!list.json.data.some((item: { id: string }) => item.id === made.json.invitation.id))
  await t.db.db
    .updateTable('invitations')
    .set({ accepted_at: new Date(), revoked_at: null })
    .where('id', '=', made.json.invitation.id)
    .execute()
  const accepted = await as('adam-key').delete(path)
  assert.equal(accepted.status, 409)
})

test('expired invitations leave the list; the list pages', async () => {
  for (const n of [1, 2, 3])
    assert.equal(
      (
        await as('olive-key').post('/v1/invitations', {
          email: `page${n}@example.test`,
          role: 'guest',
        })
      ).status,
      201,
    )
  const all = await as('olive-key').get('/v1/invitations?limit=100')
  const count = all.json.data.length
  assert.ok(count >= 3)
  const seen: string[] = []
  let cursor: string | null = null
  do {
    const page = await as('olive-key').get(
      `/v1/invitations?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    )
    assert.equal(page.status, 200, page.body)
    seen.push(...page.json.data.map((item: { id: string }) => item.id))
    cursor = page.json.next_cursor
  } while (cursor)
  assert.deepEqual(
    seen,
    all.json.data.map((item: { id: string }) => item.id),
  )
  t.clock.advance(7 * 86_400_000 + 1000)
  assert.deepEqual((await as('olive-key').get('/v1/invitations')).json.data, [])
})
