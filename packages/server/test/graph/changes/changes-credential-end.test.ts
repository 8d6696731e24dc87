import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { ManualClock } from '../../../src/lib/clock.ts'
import { removeProjectMember } from '../../harness/access-changes/project-access.commands.ts'
import { ALL_READ_SCOPES, importOk, tokenOf, writableBundle } from '../../harness/bundles.ts'
import { pollsWaiting } from '../../harness/polls-waiting.ts'
import { client, type Reply, startTestApp, type TestApp } from '../../harness/test-app.ts'

// A long poll of the change feed (docs/changes.md, "Long polling") answers as a request made when
// it wakes would: a key revoked or expired while it waits gets the 401 of authentication and
// nothing made after its end; a membership removed while it waits hides what it opened.

let t: TestApp
let ws: ImportResult
const clock = new ManualClock('2026-11-22T10:00:00.000Z')

before(async () => {
  t = await startTestApp({ clock })
  ws = await importOk(t.db.db, writableBundle(), { now: clock.now() })
})
after(() => t.close())

const as = (key: string) => client(t.app, tokenOf(ws, key))
const id = (key: string) => ws.ids[key] as string
const enc = encodeURIComponent
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A key of Olive's own that reads everything, made through the API. */
async function newKey(extra: Record<string, unknown> = {}): Promise<{ id: string; token: string }> {
  const created = await as('olive-key').post('/v1/api-keys', {
    name: 'poller',
    scopes: ALL_READ_SCOPES,
    ...extra,
  })
  assert.equal(created.status, 201, created.body)
  return created.json
}

/** Starts a long poll of the feed from now, and lets it reach its wait. */
async function startPoll(token: string, seconds = 10): Promise<{ answer: Promise<Reply> }> {
  const api = client(t.app, token)
  const cursor = (await api.get('/v1/changes')).json.next_cursor
  const waiting = t.deps.changeSignal.waiting(ws.workspace_id)
  const answer = api.get(`/v1/changes?cursor=${enc(cursor)}&wait=${seconds}`)
  await pollsWaiting(t.deps, ws.workspace_id, waiting + 1)
  return { answer }
}

/** The problem a fresh request with the token gets, without its request id. */
async function freshProblem(token: string): Promise<Reply> {
  return client(t.app, token).get('/v1/changes')
}

const withoutRequestId = (reply: Reply) => ({ ...reply.json, request_id: null })

test('a key revoked while its poll waits gets the 401 of authentication, not what came after', async () => {
  const key = await newKey()
  const poll = await startPoll(key.token)
  const revoked = await as('olive-key').post(`/v1/tokens/${key.id}/revoke`)
  assert.equal(revoked.status, 200, revoked.body)
  const task = await as('alice-key').post('/v1/tasks', {
    title: 'Made after the revocation',
    project_id: id('open'),
  })
  assert.equal(task.status, 201)
  const answer = await poll.answer
  assert.equal(answer.status, 401, answer.body)
  assert.equal(answer.json.code, 'invalid_token')
  assert.ok(!answer.body.includes(task.json.id))
  const fresh = await freshProblem(key.token)
  assert.deepEqual(withoutRequestId(answer), withoutRequestId(fresh))
  assert.equal(answer.headers['www-authenticate'], fresh.headers['www-authenticate'])
})

test('a key that expires while its poll waits gets the 401 of an expired token', async () => {
  const key = await newKey({ expires_at: new Date(clock.now().getTime() + 60_000).toISOString() })
  const poll = await startPoll(key.token)
  clock.advance(120_000)
  const task = await as('alice-key').post('/v1/tasks', {
    title: 'Made after the expiry',
    project_id: id('open'),
  })
  assert.equal(task.status, 201)
  const answer = await poll.answer
  assert.equal(answer.status, 401, answer.body)
  assert.equal(answer.json.code, 'token_expired')
  assert.ok(!answer.body.includes(task.json.id))
  assert.deepEqual(withoutRequestId(answer), withoutRequestId(await freshProblem(key.token)))
})

test('a key that ends while its poll waits on nothing still gets the 401 when the wait is over', async () => {
  const key = await newKey()
  const poll = await startPoll(key.token, 1)
  await as('olive-key').post(`/v1/tokens/${key.id}/revoke`)
  const answer = await poll.answer
  assert.equal(answer.status, 401, answer.body)
  assert.equal(answer.json.code, 'invalid_token')
})

test('a membership removed while a poll waits hides the changes it opened', async () => {
  // Alice opens the secret project through her team.
  const poll = await startPoll(tokenOf(ws, 'alice-key'))
  await t.db.db
    .transaction()
    .execute((trx) => removeProjectMember(trx, ws.workspace_id, id('secret'), id('eng')))
  const hidden = await as('bot-token').post('/v1/tasks', {
    title: 'Secret, made after Alice left',
    project_id: id('secret'),
  })
  assert.equal(hidden.status, 201, hidden.body)
  const open = await as('bob-key').post('/v1/tasks', { title: 'Open', project_id: id('open') })
  const answer = await poll.answer
  assert.equal(answer.status, 200, answer.body)
  assert.deepEqual(
    answer.json.data.map((change: { resource_id: string }) => change.resource_id),
    [open.json.id],
  )
  assert.ok(!answer.body.includes(hidden.json.id))
})

test('a poll whose credential still works keeps waiting and answers as before', async () => {
  const key = await newKey()
  const poll = await startPoll(key.token)
  await pause(1000)
  const task = await as('alice-key').post('/v1/tasks', { title: 'Awaited', project_id: id('open') })
  const answer = await poll.answer
  assert.equal(answer.status, 200, answer.body)
  assert.deepEqual(
    answer.json.data.map((change: { resource_id: string }) => change.resource_id),
    [task.json.id],
  )
})
