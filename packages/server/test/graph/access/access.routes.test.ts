import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { accessBundle } from '../../harness/access-bundle.ts'
import { importOk, tokenOf } from '../../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'

// The workspace of harness/access-bundle.ts: alice (member, team eng), bob (member, team ops,
// direct member of the private project), gus (guest, team ops, member of the open project), bot.
let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, accessBundle)
})
after(() => t.close())

const id = (key: string) => ws.ids[key] as string
const as = (who: string) => client(t.app, tokenOf(ws, who === 'bot' ? 'bot-token' : `${who}-key`))
const access = (who: string, key: string, query = '') =>
  as(who).get(`/v1/resources/${id(key)}/access${query}`)
const withoutRequestId = (json: Record<string, unknown>) => ({ ...json, request_id: null })

/** Reasons as `kind` or `kind:via-key`, for readable expectations. */
async function reasonsOf(who: string, key: string, query = ''): Promise<string[]> {
  const reply = await access(who, key, query)
  assert.equal(reply.status, 200, `${who} ${key}: ${reply.body}`)
  const keyOf = new Map(Object.entries(ws.ids).map(([k, v]) => [v, k]))
  return reply.json.reasons.map((r: { kind: string; via_id?: string }) =>
    r.via_id === undefined ? r.kind : `${r.kind}:${keyOf.get(r.via_id)}`,
  )
}

test('every kind of reason, read off the rules that open each resource', async () => {
  const expected: [string, string, string[]][] = [
    ['alice', 'open', ['workspace_member']],
    ['gus', 'open', ['project_member:open', 'team_member:ops']],
    ['bob', 'open', ['workspace_member', 'team_member:ops']],
    ['bob', 'secret', ['project_member:secret']],
    ['alice', 'secret', ['team_member:eng']],
    ['bot', 'secret', ['project_member:secret']],
    ['alice', 't-secret', ['team_member:eng', 'creator']],
    ['gus', 't-open', ['project_member:open', 'team_member:ops', 'assignee']],
    ['alice', 't-open', ['workspace_member', 'creator']],
    ['bob', 't-solo', ['creator', 'assignee']],
    ['alice', 'plan', ['team_member:eng']],
    ['alice', 'priv', ['owner']],
    ['bob', 'priv', ['team_member:ops', 'shared_with']],
    ['gus', 'priv', ['team_member:ops']],
    ['bot', 'priv', ['shared_with']],
    ['olive', 'loose', ['workspace_member']],
    ['gus', 'o-pub', ['owner']],
    ['alice', 'o-pub', ['workspace_member']],
    ['alice', 'o-priv', ['objective_team:eng']],
    ['adam', 'o-priv', ['owner']],
    ['alice', 'm1', ['parent:t-secret']],
    ['bob', 'm1', ['parent:t-secret']],
    ['alice', 'kr-priv', ['parent:o-priv']],
    ['gus', 'kr-pub', ['parent:o-pub']],
    ['alice', 'gus', ['workspace_member']],
    ['gus', 'bob', ['collaborator:open']],
    ['gus', 'gus', ['self', 'collaborator:open']],
    ['bot', 'bob', ['collaborator:secret']],
    ['bot', 'alice', ['collaborator:secret']],
    ['gus', 'ops', ['team_member:ops']],
    ['alice', 'eng', ['workspace_member']],
  ]
  for (const [who, key, reasons] of expected)
    assert.deepEqual(await reasonsOf(who, key), reasons, `${who} on ${key}`)
  const reply = await access('bot', 'secret')
  assert.deepEqual(
    { resource_id: reply.json.resource_id, person_id: reply.json.person_id },
    { resource_id: id('secret'), person_id: id('bot') },
  )
})

test('hidden, unknown, malformed and foreign-kind ids answer the same 404', async () => {
  const unknown = await as('gus').get('/v1/resources/tsk_00000000000000000000000000/access')
  assert.equal(unknown.status, 404)
  const hidden: [string, string][] = [
    ['olive', 'priv'],
    ['gus', 'loose'],
    ['olive', 'm1'],
    ['gus', 'secret'],
    ['gus', 'alice'],
    ['gus', 'eng'],
    ['bot', 'eng'],
    ['bob', 'kr-priv'],
  ]
  const bodies = [unknown, await as('gus').get('/v1/resources/not-an-id/access')]
  bodies.push(await as('olive').get(`/v1/resources/${id('bot')}/access`))
  for (const [who, key] of hidden) bodies.push(await access(who, key))
  for (const reply of bodies) {
    assert.equal(reply.status, 404, reply.body)
    assert.deepEqual(withoutRequestId(reply.json), withoutRequestId(unknown.json))
  }
})

test('the workspace and activity entries have no reasons: a 400 from the prefix alone', async () => {
  const entries = await as('alice').get('/v1/activity?limit=1')
  for (const target of [
    ws.workspace_id,
    entries.json.data[0].id,
    'act_00000000000000000000000000',
  ]) {
    const reply = await as('alice').get(`/v1/resources/${target}/access`)
    assert.equal(reply.status, 400, reply.body)
    assert.equal(reply.json.code, 'invalid_request')
  }
})

test('owners and admins ask about another person for what they may open themselves', async () => {
  assert.deepEqual(await reasonsOf('olive', 't-open', `?person_id=${id('gus')}`), [
    'project_member:open',
    'team_member:ops',
    'assignee',
  ])
  assert.deepEqual(await reasonsOf('adam', 'o-priv', `?person_id=${id('alice')}`), [
    'objective_team:eng',
  ])
  // Someone who cannot open it: an empty list, not a 404.
  assert.deepEqual(await reasonsOf('adam', 'o-priv', `?person_id=${id('bob')}`), [])
  assert.deepEqual(await reasonsOf('olive', 'open', `?person_id=${id('gus')}`), [
    'project_member:open',
    'team_member:ops',
  ])
  const about = await access('olive', 'open', `?person_id=${id('gus')}`)
  assert.equal(about.json.person_id, id('gus'))
  // What the asker may not open is the one 404, whoever is asked about.
  const hidden = await access('olive', 'secret', `?person_id=${id('bob')}`)
  assert.equal(hidden.status, 404)
  assert.equal(hidden.json.errors, undefined)
})

test('person_id: 403 for everyone but owners and admins, 404 for what names no person', async () => {
  for (const who of ['alice', 'gus', 'bot']) {
    const reply = await access(who, 't-open', `?person_id=${id('olive')}`)
    assert.equal(reply.status, 403, `${who}: ${reply.body}`)
    assert.equal(reply.json.code, 'forbidden')
  }
  // Asking about oneself needs no role.
  assert.deepEqual(await reasonsOf('alice', 't-open', `?person_id=${id('alice')}`), [
    'workspace_member',
    'creator',
  ])
  const unknowns = ['usr_00000000000000000000000000', 'nope', id('eng'), id('bot')]
  for (const other of unknowns) {
    const reply = await access('olive', 'open', `?person_id=${other}`)
    assert.equal(reply.status, 404, `${other}: ${reply.body}`)
    assert.deepEqual(reply.json.errors, [
      { path: '/person_id', message: 'names no resource this token can open' },
    ])
  }
})

test('the read scope of the resource type is needed, as for the record', async () => {
  const narrow = client(t.app, tokenOf(ws, 'narrow-key'))
  assert.equal((await narrow.get(`/v1/resources/${id('t-open')}/access`)).status, 200)
  for (const key of ['open', 'priv', 'o-pub', 'm1', 'kr-pub', 'gus', 'eng']) {
    const reply = await narrow.get(`/v1/resources/${id(key)}/access`)
    assert.equal(reply.status, 403, key)
    assert.equal(reply.json.code, 'insufficient_scope')
  }
  const anonymous = await client(t.app).get(`/v1/resources/${id('t-open')}/access`)
  assert.equal(anonymous.status, 401)
})
