import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Bundle } from '../../../src/bundle/bundle.schema.ts'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { ManualClock } from '../../../src/lib/clock.ts'
import { ALL_READ_SCOPES, importOk, smallBundle, tokenOf } from '../../harness/bundles.ts'
import { tableSnapshot } from '../../harness/table-snapshot.ts'
import { client, type Reply, startTestApp, type TestApp } from '../../harness/test-app.ts'

// Creating, editing and closing objectives and their key results (graph/okrs/, the editor rule
// of access/objective-editors.ts): every write through the write path, over HTTP.

let t: TestApp
let ws: ImportResult
const clock = new ManualClock('2026-11-22T12:00:00.000Z')
const id = (key: string) => ws.ids[key] as string
const as = (key: string) => client(t.app, tokenOf(ws, key))

// A key result as records, changes and audit diffs give it.
interface KeyResult {
  id: string
  title: string
  start: number
  target: number
  current: number
  unit: string
}

// An activity entry's changes.
type Changes = Record<string, { from: unknown; to: unknown }>

const WRITER = [...ALL_READ_SCOPES, 'okr:checkin', 'okr:write']

// The small workspace, with Tess in Engineering beside Alice, and objectives of every kind of
// owner: Alice's; Bob's, owned by Engineering; Bob's private one; Gus's (a guest's).
function bundle(): Bundle {
  const base = smallBundle()
  return {
    ...base,
    people: [
      ...base.people,
      { key: 'tess', name: 'Tess Teammate', email: 'tess@example.test', role: 'member' },
    ],
    teams: [
      { key: 'eng', name: 'Engineering', members: ['alice', 'tess'] },
      { key: 'ops', name: 'Operations', members: ['bob'] },
    ],
    okrs: [
      ...(base.okrs ?? []),
      {
        key: 'o-team',
        title: 'Ship faster',
        session: '2026-Q4',
        owner: 'bob',
        team: 'eng',
        visibility: 'workspace',
        key_results: [{ key: 'kr-team', title: 'Deploys', target: 50, current: 10 }],
      },
      {
        key: 'o-private',
        title: 'Quiet plan',
        session: '2026-Q4',
        owner: 'bob',
        visibility: 'private',
        key_results: [{ key: 'kr-private', title: 'Hidden measure', target: 10, current: 1 }],
      },
      {
        key: 'o-gus',
        title: 'Partner goal',
        session: '2026-Q4',
        owner: 'gus',
        visibility: 'workspace',
        key_results: [{ key: 'kr-gus', title: 'Partner signups', target: 20, current: 5 }],
      },
    ],
    api_keys: [
      ...['olive', 'adam', 'alice', 'bob', 'gus', 'tess'].map((person) => ({
        key: `${person}-key`,
        person,
        scopes: [
          ...WRITER,
          ...(person === 'olive' ? ['audit:read'] : []),
          ...(person === 'alice' ? ['token:manage'] : []),
        ],
      })),
      { key: 'checkin-only-key', person: 'alice', scopes: [...ALL_READ_SCOPES, 'okr:checkin'] },
    ],
    workspace_tokens: [{ key: 'bot-token', integration: 'bot', scopes: WRITER }],
  }
}

before(async () => {
  t = await startTestApp({ clock })
  ws = await importOk(t.db.db, bundle(), { now: clock.now() })
})
after(() => t.close())

const UNKNOWN_OKR = 'obj_00000000000000000000000000'
const UNKNOWN_KR = 'kr_00000000000000000000000000'

// A problem's body without its request id: what a hidden and an unknown id must share.
const told = (reply: Reply) => ({ status: reply.status, body: { ...reply.json, request_id: '' } })

// An outbox event's data: its object and, on an update, the earlier values of what changed.
interface EventData {
  object: Record<string, unknown>
  previous_attributes?: Record<string, unknown>
}

async function eventsOf(subjectId: string) {
  const rows = await t.db.db
    .selectFrom('events')
    .selectAll()
    .where('subject_id', '=', subjectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return rows.map((row) => ({ ...row, data: row.data as EventData }))
}

async function auditOf(resourceId: string) {
  return t.db.db
    .selectFrom('audit_log')
    .selectAll()
    .where('resource_id', '=', resourceId)
    .orderBy('created_at')
    .execute()
}

async function activityOf(reader: string, okrId: string) {
  const reply = await as(reader).get(`/v1/activity?resource_id=${okrId}`)
  assert.equal(reply.status, 200, reply.body)
  return reply.json.data as { verb: string; object_id: string | null; changes: Changes }[]
}

// Sends a request that must be refused, and checks that it changed nothing at all.
async function refused(send: () => Promise<Reply>, status: number, path?: string) {
  const before = await tableSnapshot(t.db.db)
  const reply = await send()
  assert.equal(reply.status, status, reply.body)
  assert.match(String(reply.headers['content-type']), /^application\/problem\+json/)
  if (path !== undefined) assert.equal(reply.json.errors?.[0]?.path, path, reply.body)
  assert.deepEqual(await tableSnapshot(t.db.db), before, 'a refused write changes nothing')
  return reply
}

test('creating an objective with key results: the record, its index, activity, audit and event', async () => {
  const reply = await as('alice-key').post('/v1/okrs', {
    title: 'Delight new teams',
    session: ' 2027-q1 ',
    team_id: 'Engineering',
    project_id: 'Open project',
    key_results: [
      { title: 'Activation rate', start: 30, target: 45, unit: '%' },
      { title: 'Support tickets', start: 80, target: 20 },
    ],
  })
  assert.equal(reply.status, 201, reply.body)
  const okr = reply.json
  assert.match(okr.id, /^obj_/)
  assert.equal(okr.title, 'Delight new teams')
  assert.equal(okr.session, '2027-Q1', 'a period is stored in the form the filter finds')
  assert.equal(okr.owner_id, id('alice'), 'the caller owns it unless told otherwise')
  assert.equal(okr.team_id, id('eng'))
  assert.equal(okr.project_id, id('open'))
  assert.equal(okr.visibility, 'workspace')
  assert.equal(okr.status, 'open')
  assert.equal(okr.closed_at, null)
  assert.equal(okr.progress, 0)
  assert.deepEqual(
    okr.key_results.map((kr: KeyResult) => [kr.title, kr.start, kr.target, kr.current, kr.unit]),
    [
      ['Activation rate', 30, 45, 30, '%'],
      ['Support tickets', 80, 20, 80, ''],
    ],
  )

  // Open at once to every member, and found by its key results' words.
  assert.equal((await as('bob-key').get(`/v1/resources/${okr.id}`)).body, reply.body)
  const listed = await as('bob-key').get('/v1/okrs?session=2027-Q1')
  assert.deepEqual(
    listed.json.data.map((o: { id: string }) => o.id),
    [okr.id],
  )
  const index = await t.db.db
    .selectFrom('resource_index')
    .select(['body', 'ws_visible', 'acl'])
    .where('id', '=', okr.id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(index, {
    body: 'Activation rate\nSupport tickets',
    ws_visible: true,
    acl: [id('alice')],
  })

  const [entry] = await activityOf('bob-key', okr.id)
  assert.equal(entry?.verb, 'okr.created')
  const [audit] = await auditOf(okr.id)
  assert.equal(audit?.action, 'okr.created')
  assert.equal(audit?.token_id, ws.api_keys['alice-key']?.id)
  const diff = audit?.diff as Record<string, { from: unknown; to: KeyResult[] }>
  assert.deepEqual(diff.title, { from: null, to: 'Delight new teams' })
  assert.deepEqual(diff.status, { from: null, to: 'open' })
  assert.deepEqual(
    diff.key_results?.to.map((kr: { title: string }) => kr.title),
    ['Activation rate', 'Support tickets'],
  )
  const events = await eventsOf(okr.id)
  assert.deepEqual(
    events.map((e) => e.type),
    ['okr.created'],
  )
  assert.deepEqual(events[0]?.data.object, okr)
  assert.equal(events[0]?.data.previous_attributes, undefined)
})

test('a private objective must be open to its creator; an owner may be given by name', async () => {
  const api = as('alice-key')
  const theirs = await refused(
    () =>
      api.post('/v1/okrs', {
        title: 'For Bob alone',
        session: '2026-Q4',
        owner_id: 'Bob Member',
        visibility: 'private',
      }),
    422,
    '/visibility',
  )
  assert.equal(theirs.json.code, 'validation_failed')
  assert.match(theirs.json.errors[0].message, /you could not open it/)
  // Bob's, but owned by a team Alice is in: open to her, and to Tess; not to Bob's peers.
  const team = await api.post('/v1/okrs', {
    title: 'For Bob and us',
    session: '2026-Q4',
    owner_id: 'Bob Member',
    team_id: id('eng'),
    visibility: 'private',
  })
  assert.equal(team.status, 201, team.body)
  assert.equal(team.json.owner_id, id('bob'))
  for (const [who, status] of [
    ['bob-key', 200],
    ['tess-key', 200],
    ['adam-key', 404],
    ['olive-key', 404],
  ] as const)
    assert.equal((await as(who).get(`/v1/resources/${team.json.id}`)).status, status, who)
})

test('an objective in a private project must say who sees it; given, either is made', async () => {
  const api = as('alice-key')
  const unsaid = await refused(
    () =>
      api.post('/v1/okrs', { title: 'Quiet goal', session: '2026-Q4', project_id: id('secret') }),
    422,
    '/visibility',
  )
  assert.match(unsaid.json.errors[0].message, /private project/)
  for (const visibility of ['private', 'workspace']) {
    const made = await api.post('/v1/okrs', {
      title: `Said goal ${visibility}`,
      session: '2026-Q4',
      project_id: id('secret'),
      visibility,
    })
    assert.equal(made.status, 201, made.body)
    assert.equal(made.json.visibility, visibility)
  }
  // Outside a private project the default stays `workspace`.
  const open = await api.post('/v1/okrs', { title: 'Open goal', session: '2026-Q4' })
  assert.equal(open.json.visibility, 'workspace')
})

test('bad input is a 4xx problem that writes nothing; a hidden project is the unknown 404', async () => {
  const api = as('alice-key')
  const okr = { title: 'Valid', session: '2026-Q4' }
  await refused(() => api.post('/v1/okrs', { ...okr, title: '   ' }), 422, '/title')
  await refused(() => api.post('/v1/okrs', { ...okr, session: ' ' }), 422, '/session')
  await refused(() => api.post('/v1/okrs', { ...okr, session: '' }), 422, '/session')
  await refused(() => api.post('/v1/okrs', { title: 'No session' }), 422)
  await refused(() => api.post('/v1/okrs', { ...okr, visibility: 'secret' }), 422, '/visibility')
  await refused(() => api.post('/v1/okrs', { ...okr, colour: 'red' }), 422)
  const same = { title: 'Flat', start: 5, target: 5 }
  await refused(
    () => api.post('/v1/okrs', { ...okr, key_results: [{ title: 'Fine', target: 1 }, same] }),
    422,
    '/key_results/1/target',
  )
  await refused(
    () => api.post('/v1/okrs', { ...okr, key_results: [{ title: ' ', target: 1 }] }),
    422,
    '/key_results/0/title',
  )
  await refused(
    () => api.post('/v1/okrs', { ...okr, key_results: [{ title: 'Huge', target: 1e16 }] }),
    422,
  )
  const eleven = Array.from({ length: 11 }, (_, i) => ({ title: `KR ${i}`, target: i + 1 }))
  await refused(() => api.post('/v1/okrs', { ...okr, key_results: eleven }), 422)
  await refused(() => api.post('/v1/okrs', { ...okr, owner_id: 'Nobody Here' }), 404, '/owner_id')
  await refused(() => api.post('/v1/okrs', { ...okr, team_id: id('open') }), 404, '/team_id')
  await refused(() => api.post('/v1/okrs', { ...okr, owner_id: id('bot') }), 404, '/owner_id')
  // The secret project is closed to Bob: naming it answers as a project nobody has.
  const bob = as('bob-key')
  const hidden = await refused(
    () => bob.post('/v1/okrs', { ...okr, project_id: id('secret') }),
    404,
    '/project_id',
  )
  const unknown = await refused(
    () => bob.post('/v1/okrs', { ...okr, project_id: 'prj_00000000000000000000000000' }),
    404,
  )
  assert.deepEqual(told(hidden), told(unknown))
  const byName = await refused(
    () => bob.post('/v1/okrs', { ...okr, project_id: 'Secret project' }),
    404,
  )
  const noName = await refused(() => bob.post('/v1/okrs', { ...okr, project_id: 'Nothing' }), 404)
  assert.deepEqual(told(byName), told(noName))
})

test('people create objectives: a guest or a workspace token is refused, a missing scope too', async () => {
  const body = { title: 'Mine', session: '2026-Q4' }
  const guest = await refused(() => as('gus-key').post('/v1/okrs', body), 403)
  assert.equal(guest.json.code, 'forbidden')
  assert.match(guest.json.detail, /Guests cannot create objectives/)
  const bot = await refused(() => as('bot-token').post('/v1/okrs', body), 403)
  assert.equal(bot.json.code, 'forbidden')
  assert.match(bot.json.detail, /owned by people/)
  const reader = as('checkin-only-key')
  for (const send of [
    () => reader.post('/v1/okrs', body),
    () => reader.patch(`/v1/okrs/${id('o1')}`, { title: 'x' }),
    () => reader.post(`/v1/okrs/${id('o1')}/key-results`, { title: 'x', target: 1 }),
    () => reader.patch(`/v1/key-results/${id('kr1')}`, { title: 'x' }),
  ]) {
    const reply = await refused(send, 403)
    assert.equal(reply.json.code, 'insufficient_scope')
    assert.deepEqual(reply.json.required_scopes, ['okr:write'])
  }
})

test('a key fenced to projects makes objectives inside its fence only', async () => {
  const fenced = await as('alice-key').post('/v1/api-keys', {
    name: 'Fenced',
    scopes: WRITER,
    project_ids: [id('open')],
  })
  assert.equal(fenced.status, 201, fenced.body)
  const api = client(t.app, fenced.json.token)
  const body = { title: 'Fenced goal', session: '2026-Q4' }
  await refused(() => api.post('/v1/okrs', body), 422, '/project_id')
  await refused(() => api.post('/v1/okrs', { ...body, project_id: id('secret') }), 404)
  const inside = await api.post('/v1/okrs', { ...body, project_id: id('open') })
  assert.equal(inside.status, 201, inside.body)
  await refused(
    () => api.patch(`/v1/okrs/${inside.json.id}`, { project_id: null }),
    422,
    '/project_id',
  )
})

test('who may edit: the owner, its team, owners and admins who can open it; not other members', async () => {
  const title = (who: string, okr: string, value: string) =>
    as(who).patch(`/v1/okrs/${id(okr)}`, { title: value })
  // Alice owns o1; Tess is in Engineering, which owns Bob's o-team; Adam and Olive administer.
  for (const [who, okr] of [
    ['alice-key', 'o1'],
    ['bob-key', 'o-team'],
    ['tess-key', 'o-team'],
    ['adam-key', 'o-team'],
    ['olive-key', 'o1'],
    ['gus-key', 'o-gus'],
  ] as const) {
    const reply = await title(who, okr, `Edited by ${who}`)
    assert.equal(reply.status, 200, `${who} on ${okr}: ${reply.body}`)
    assert.equal(reply.json.title, `Edited by ${who}`)
  }
  // A member who can open it but is neither its owner nor in its team: 403, nothing written.
  for (const [who, okr] of [
    ['bob-key', 'o1'],
    ['tess-key', 'o-gus'],
  ] as const) {
    const reply = await refused(() => title(who, okr, 'Not mine'), 403)
    assert.equal(reply.json.code, 'forbidden')
    assert.match(reply.json.detail, /owner, the members of its team/)
  }
  const kr = await refused(
    () => as('bob-key').patch(`/v1/key-results/${id('kr1')}`, { target: 90 }),
    403,
  )
  assert.equal(kr.json.code, 'forbidden')
  await refused(
    () => as('bob-key').post(`/v1/okrs/${id('o1')}/key-results`, { title: 'x', target: 1 }),
    403,
  )
  // A workspace token is refused as for creating: objectives are people's.
  const bot = await refused(() => title('bot-token', 'o1', 'Bot'), 403)
  assert.equal(bot.json.code, 'forbidden')
  // A guest may not open o1: the unknown id's 404.
  assert.deepEqual(
    told(await refused(() => title('gus-key', 'o1', 'x'), 404)),
    told(await refused(() => as('gus-key').patch(`/v1/okrs/${UNKNOWN_OKR}`, { title: 'x' }), 404)),
  )
})

test('an admin who cannot open a private objective gets exactly the unknown id’s 404', async () => {
  for (const who of ['adam-key', 'olive-key', 'alice-key']) {
    const api = as(who)
    const pairs: [() => Promise<Reply>, () => Promise<Reply>][] = [
      [
        () => api.patch(`/v1/okrs/${id('o-private')}`, { status: 'closed' }),
        () => api.patch(`/v1/okrs/${UNKNOWN_OKR}`, { status: 'closed' }),
      ],
      [
        () => api.post(`/v1/okrs/${id('o-private')}/key-results`, { title: 'x', target: 2 }),
        () => api.post(`/v1/okrs/${UNKNOWN_OKR}/key-results`, { title: 'x', target: 2 }),
      ],
      [
        () => api.patch(`/v1/key-results/${id('kr-private')}`, { target: 2 }),
        () => api.patch(`/v1/key-results/${UNKNOWN_KR}`, { target: 2 }),
      ],
      [
        () => api.patch(`/v1/okrs/${id('kr1')}`, { title: 'x' }),
        () => api.patch(`/v1/okrs/${UNKNOWN_OKR}`, { title: 'x' }),
      ],
    ]
    for (const [hidden, unknown] of pairs)
      assert.deepEqual(told(await refused(hidden, 404)), told(await refused(unknown, 404)), who)
  }
})

test('closing and reopening: status and closed_at, the diff, the event, the list filter', async () => {
  const api = as('alice-key')
  const created = await api.post('/v1/okrs', { title: 'Close me', session: '2026-Q4' })
  const okrId = created.json.id
  clock.advance(60_000)
  const closed = await api.patch(`/v1/okrs/${okrId}`, { status: 'closed' })
  assert.equal(closed.status, 200, closed.body)
  assert.equal(closed.json.status, 'closed')
  assert.equal(closed.json.closed_at, clock.now().toISOString())
  assert.equal(closed.json.updated_at, clock.now().toISOString())
  const ids = async (query: string) =>
    (await api.get(`/v1/okrs?session=2026-Q4&${query}`)).json.data.map((o: { id: string }) => o.id)
  assert.ok((await ids('status=closed')).includes(okrId))
  assert.ok(!(await ids('status=open')).includes(okrId))
  assert.equal((await api.get('/v1/okrs?status=done')).status, 422)

  // Closing it again changes nothing and records nothing.
  const again = await api.patch(`/v1/okrs/${okrId}`, { status: 'closed' })
  assert.equal(again.body, closed.body)
  clock.advance(60_000)
  const reopened = await api.patch(`/v1/okrs/${okrId}`, { status: 'open' })
  assert.equal(reopened.json.status, 'open')
  assert.equal(reopened.json.closed_at, null)

  const entries = await activityOf('bob-key', okrId)
  assert.deepEqual(
    entries.map((e) => [e.verb, e.changes]),
    [
      ['okr.updated', { status: { from: 'closed', to: 'open' } }],
      ['okr.updated', { status: { from: 'open', to: 'closed' } }],
      ['okr.created', {}],
    ],
  )
  const events = await eventsOf(okrId)
  assert.deepEqual(
    events.map((e) => [e.type, e.data.object.status, e.data.previous_attributes]),
    [
      ['okr.created', 'open', undefined],
      ['okr.updated', 'closed', { status: 'open' }],
      ['okr.updated', 'open', { status: 'closed' }],
    ],
  )
  const audits = await auditOf(okrId)
  assert.deepEqual(audits[1]?.diff, {
    status: { from: 'open', to: 'closed' },
    closed_at: { from: null, to: closed.json.closed_at },
  })
})

test('a closed objective needs no attention', async () => {
  const attention = async () => (await as('alice-key').get('/v1/attention')).json.facts
  // Alice's o1 is at 40% where 57% of 2026-Q4 has passed.
  const before = await attention()
  assert.equal(before.at_risk_okrs, 1)
  const closed = await as('alice-key').patch(`/v1/okrs/${id('o1')}`, { status: 'closed' })
  assert.equal(closed.status, 200, closed.body)
  assert.equal((await attention()).at_risk_okrs, 0)
  await as('alice-key').patch(`/v1/okrs/${id('o1')}`, { status: 'open' })
  assert.equal((await attention()).at_risk_okrs, 1)
})

test('changing owner, team and visibility re-derives who may open it, in the same write', async () => {
  const api = as('alice-key')
  const created = await api.post('/v1/okrs', {
    title: 'Handed over',
    session: '2026-Q4',
    team_id: 'Engineering',
    visibility: 'private',
  })
  const okrId = created.json.id
  const opens = async (who: string) => (await as(who).get(`/v1/resources/${okrId}`)).status
  // Each change a moment after the last, so that the activity lists them in order.
  const later = () => clock.advance(1000)
  assert.equal(await opens('bob-key'), 404)
  assert.equal(await opens('tess-key'), 200)

  // To Bob, still Engineering's: Alice keeps it through her team, Bob now opens it.
  later()
  const handed = await api.patch(`/v1/okrs/${okrId}`, { owner_id: 'Bob Member' })
  assert.equal(handed.status, 200, handed.body)
  assert.equal(handed.json.owner_id, id('bob'))
  assert.equal(await opens('bob-key'), 200)
  // Bob gives it to Operations: Alice and Tess lose it, and his write says so first.
  const away = await refused(
    () => as('tess-key').patch(`/v1/okrs/${okrId}`, { team_id: id('ops') }),
    422,
    '/team_id',
  )
  assert.match(away.json.errors[0].message, /must leave the objective open to you/)
  later()
  const moved = await as('bob-key').patch(`/v1/okrs/${okrId}`, { team_id: 'Operations' })
  assert.equal(moved.status, 200, moved.body)
  assert.equal(await opens('alice-key'), 404)
  assert.equal(await opens('tess-key'), 404)
  // Made public: every member opens it; guests only their own.
  later()
  const open = await as('bob-key').patch(`/v1/okrs/${okrId}`, { visibility: 'workspace' })
  assert.equal(open.status, 200, open.body)
  assert.equal(await opens('alice-key'), 200)
  assert.equal(await opens('adam-key'), 200)
  assert.equal(await opens('gus-key'), 404)

  // The activity lists the owner (by name, for a reader who reads people) and the visibility,
  // never the team; the audit diff has the team.
  const entries = await activityOf('alice-key', okrId)
  assert.deepEqual(
    entries.map((e) => e.changes),
    [
      { visibility: { from: 'private', to: 'workspace' } },
      {},
      {
        owner_id: {
          from: id('alice'),
          to: id('bob'),
          from_name: 'Alice Member',
          to_name: 'Bob Member',
        },
      },
      {},
    ],
  )
  const audits = await auditOf(okrId)
  assert.deepEqual(audits[2]?.diff, { team_id: { from: id('eng'), to: id('ops') } })
  const [, , moveEvent] = await eventsOf(okrId)
  assert.equal(moveEvent?.data.object.team_id, id('ops'))
})

test('a change to nothing records nothing, and null keeps a project the caller cannot open', async () => {
  const api = as('alice-key')
  const created = await api.post('/v1/okrs', {
    title: 'In secret',
    session: '2026-Q4',
    project_id: id('secret'),
    visibility: 'workspace',
  })
  const okrId = created.json.id
  // Adam opens the objective (open to the workspace) but not its project: he sees none.
  const seen = await as('adam-key').get(`/v1/resources/${okrId}`)
  assert.equal(seen.json.project_id, null)
  const before = await tableSnapshot(t.db.db)
  const same = await api.patch(`/v1/okrs/${okrId}`, {
    title: 'In secret',
    session: '2026-Q4',
    status: 'open',
    visibility: 'workspace',
    owner_id: 'me',
  })
  assert.equal(same.status, 200, same.body)
  assert.equal(same.body, created.body, 'the record as it was: updated_at did not move')
  const cleared = await as('adam-key').patch(`/v1/okrs/${okrId}`, { project_id: null })
  assert.equal(cleared.status, 200, cleared.body)
  assert.equal(cleared.body, seen.body)
  assert.deepEqual(await tableSnapshot(t.db.db), before, 'nothing was recorded')
  // Alice, who opens the project, takes the objective out of it.
  const out = await api.patch(`/v1/okrs/${okrId}`, { project_id: null })
  assert.equal(out.json.project_id, null)
  assert.deepEqual((await auditOf(okrId))[1]?.diff, {
    project_id: { from: id('secret'), to: null },
  })
})

test("adding and editing key results recomputes the objective's progress", async () => {
  const api = as('tess-key')
  const objective = id('o-team')
  // o-team: Deploys at 10 of 50, progress 0.2.
  const added = await api.post(`/v1/okrs/${objective}/key-results`, {
    title: 'Incidents',
    start: 20,
    target: 0,
    unit: 'incidents',
  })
  assert.equal(added.status, 201, added.body)
  assert.match(added.json.id, /^kr_/)
  assert.equal(added.json.objective_id, objective)
  assert.equal(added.json.current, 20)
  assert.equal(added.json.progress, 0)
  assert.equal(added.json.objective_progress, 0.1)

  clock.advance(1000)
  const edited = await api.patch(`/v1/key-results/${id('kr-team')}`, { start: 10, target: 30 })
  assert.equal(edited.status, 200, edited.body)
  assert.equal(edited.json.progress, 0)
  assert.equal(edited.json.objective_progress, 0)
  clock.advance(1000)
  const retitled = await api.patch(`/v1/key-results/${id('kr-team')}`, { title: 'Weekly deploys' })
  assert.equal(retitled.json.objective_progress, 0)
  const record = (await api.get(`/v1/resources/${objective}`)).json
  assert.equal(record.progress, 0)
  assert.deepEqual(
    record.key_results.map((kr: KeyResult) => [kr.title, kr.start, kr.target, kr.current]),
    [
      ['Weekly deploys', 10, 30, 10],
      ['Incidents', 20, 0, 20],
    ],
  )
  // The new words are found: the index row's text is the key results' titles.
  const index = await t.db.db
    .selectFrom('resource_index')
    .select('body')
    .where('id', '=', objective)
    .executeTakeFirstOrThrow()
  assert.equal(index.body, 'Weekly deploys\nIncidents')

  await refused(() => api.patch(`/v1/key-results/${id('kr-team')}`, { target: 10 }), 422, '/target')
  await refused(() => api.patch(`/v1/key-results/${id('kr-team')}`, { start: 30 }), 422, '/start')
  await refused(() => api.patch(`/v1/key-results/${id('kr-team')}`, {}), 422)
  await refused(
    () => api.post(`/v1/okrs/${objective}/key-results`, { title: 'Flat', target: 0 }),
    422,
    '/target',
  )
  const unchanged = await api.patch(`/v1/key-results/${id('kr-team')}`, { unit: '' })
  assert.equal(unchanged.status, 200)

  // The three latest entries are the key results' (the objective's own have no object).
  const entries = (await activityOf('alice-key', objective)).slice(0, 3)
  assert.deepEqual(
    entries.map((e) => [e.verb, e.object_id, Object.keys(e.changes).sort()]),
    [
      ['okr.updated', id('kr-team'), ['key_results']],
      ['okr.updated', id('kr-team'), ['key_results', 'progress']],
      ['okr.updated', added.json.id, ['key_results', 'progress']],
    ],
  )
  const progressed = entries[1] as (typeof entries)[number]
  assert.deepEqual(progressed.changes.progress, { from: 0.1, to: 0 })
  assert.deepEqual(
    (progressed.changes.key_results as { to: KeyResult[] }).to.map((kr) => [
      kr.id,
      kr.start,
      kr.target,
    ]),
    [
      [id('kr-team'), 10, 30],
      [added.json.id, 20, 0],
    ],
  )
  const events = (await eventsOf(objective)).slice(-3)
  assert.deepEqual(
    events.map((e) => [e.type, Object.keys(e.data.previous_attributes ?? {}).sort()]),
    [
      ['okr.updated', ['key_results', 'progress']],
      ['okr.updated', ['key_results', 'progress']],
      ['okr.updated', ['key_results']],
    ],
  )
  assert.equal(events[1]?.data.previous_attributes?.progress, 0.1)
  const audits = await auditOf(id('kr-team'))
  assert.deepEqual(
    audits.map((a) => [a.action, a.resource_type, a.diff]),
    [
      ['okr.updated', 'key_result', { start: { from: 0, to: 10 }, target: { from: 50, to: 30 } }],
      ['okr.updated', 'key_result', { title: { from: 'Deploys', to: 'Weekly deploys' } }],
    ],
  )
})

test('an objective holds at most 25 key results', async () => {
  const api = as('alice-key')
  const created = await api.post('/v1/okrs', {
    title: 'Many measures',
    session: '2026-Q4',
    key_results: Array.from({ length: 10 }, (_, i) => ({ title: `KR ${i}`, target: 1 })),
  })
  assert.equal(created.status, 201, created.body)
  for (let i = 10; i < 25; i++) {
    const reply = await api.post(`/v1/okrs/${created.json.id}/key-results`, {
      title: `KR ${i}`,
      target: 1,
    })
    assert.equal(reply.status, 201, reply.body)
  }
  const full = await refused(
    () => api.post(`/v1/okrs/${created.json.id}/key-results`, { title: 'One more', target: 1 }),
    422,
    '',
  )
  assert.match(full.json.detail, /at most 25 key results/)
})

test('an Idempotency-Key replays the first answer and writes once', async () => {
  const api = as('alice-key')
  const headers = { 'idempotency-key': 'okr-create-1' }
  const body = { title: 'Once only', session: '2026-Q4', key_results: [{ title: 'x', target: 3 }] }
  const first = await api.post('/v1/okrs', body, headers)
  assert.equal(first.status, 201, first.body)
  const before = await tableSnapshot(t.db.db)
  const again = await api.post('/v1/okrs', body, headers)
  assert.equal(again.status, 201)
  assert.equal(again.body, first.body)
  assert.equal(again.headers['idempotent-replayed'], 'true')
  assert.deepEqual(await tableSnapshot(t.db.db), before)
  const other = await api.post('/v1/okrs', { ...body, title: 'Another' }, headers)
  assert.equal(other.status, 422)
  assert.equal(other.json.code, 'idempotency_key_reused')

  const patch = { 'idempotency-key': 'okr-close-1' }
  const closed = await api.patch(`/v1/okrs/${first.json.id}`, { status: 'closed' }, patch)
  clock.advance(1000)
  const replayed = await api.patch(`/v1/okrs/${first.json.id}`, { status: 'closed' }, patch)
  assert.equal(replayed.body, closed.body)
  assert.equal(replayed.headers['idempotent-replayed'], 'true')
  assert.equal((await eventsOf(first.json.id)).length, 2)
})

// The real answer with every value naming an id the write made (absent from `known`) as null:
// what its dry run answers.
function newIdsNulled(value: unknown, known: string): unknown {
  if (typeof value === 'string') {
    const ids = value.match(/\b[a-z]{2,4}_[0-9a-z]{26}\b/g) ?? []
    return ids.some((found) => !known.includes(found)) ? null : value
  }
  if (Array.isArray(value)) return value.map((item) => newIdsNulled(item, known))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, newIdsNulled(item, known)]),
    )
  return value
}

test('a dry run answers what the write would do and writes nothing', async () => {
  const create = {
    title: 'Dry goal',
    session: '2026-Q4',
    key_results: [{ title: 'Dry measure', target: 4 }],
  }
  const cases: [string, string, 'POST' | 'PATCH', string, unknown][] = [
    ['alice-key', 'okr.created', 'POST', '/v1/okrs', create],
    ['gus-key', 'okr.updated', 'PATCH', `/v1/okrs/${id('o-gus')}`, { session: '2027' }],
    [
      'alice-key',
      'okr.updated',
      'POST',
      `/v1/okrs/${id('o-team')}/key-results`,
      { title: 'Dry', target: 9 },
    ],
    ['alice-key', 'okr.updated', 'PATCH', `/v1/key-results/${id('kr1')}`, { target: 200 }],
  ]
  for (const [who, verb, method, url, payload] of cases) {
    const api = as(who)
    const before = await tableSnapshot(t.db.db)
    const dry = await api.send({ method, url: `${url}?dry_run=true`, payload: payload as object })
    assert.deepEqual(await tableSnapshot(t.db.db), before, `${url}: a dry run writes nothing`)
    assert.equal(dry.status, 200, dry.body)
    assert.equal(dry.json.dry_run, true)
    assert.deepEqual(
      dry.json.activity.map((a: { verb: string; id: unknown }) => [a.verb, a.id]),
      [[verb, null]],
    )
    assert.deepEqual(
      dry.json.events.map((e: { type: string }) => e.type),
      [verb],
    )
    const real = await api.send({ method, url, payload: payload as object })
    assert.ok(real.status < 300, real.body)
    assert.deepEqual(dry.json.result, newIdsNulled(real.json, JSON.stringify(before)), url)
  }
  // A refused dry run is refused as the write is: Alice may open Gus's objective, not edit it.
  const dryRefused = await refused(
    () => as('alice-key').patch(`/v1/okrs/${id('o-gus')}?dry_run=true`, { session: '2028' }),
    403,
  )
  const realRefused = await refused(
    () => as('alice-key').patch(`/v1/okrs/${id('o-gus')}`, { session: '2028' }),
    403,
  )
  assert.deepEqual(told(dryRefused), told(realRefused))
})
