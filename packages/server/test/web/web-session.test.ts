import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import {
  ABSOLUTE_LIFETIME_MS,
  endSession,
  findSession,
  IDLE_LIFETIME_MS,
  startSession,
  sweepWebSessions,
} from '../../src/web/web-session.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'

// The lifetimes of docs/dashboard.md ("Sessions"), by moving the clock the session reads.

let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, smallBundle())
})
after(() => t.close())

const HOUR = 60 * 60 * 1000
const start = new Date('2026-11-23T09:00:00.000Z')
const at = (ms: number) => new Date(start.getTime() + ms)

async function newSession(person = 'alice') {
  const personId = ws.ids[person] as string
  return startSession(t.db.db, { workspaceId: ws.workspace_id, personId, now: start })
}

test('a session ends after 12 hours without a request, not before', async () => {
  const value = await newSession()
  assert.ok(await findSession(t.db.db, value, at(IDLE_LIFETIME_MS - HOUR)))
  // That request moved the idle end: 12 hours after it, not after sign-in.
  assert.ok(await findSession(t.db.db, value, at(IDLE_LIFETIME_MS + 10 * HOUR)))
  assert.equal(await findSession(t.db.db, value, at(2 * IDLE_LIFETIME_MS + 10 * HOUR)), null)
})

test('a session ends 7 days after sign-in however busy it is', async () => {
  const value = await newSession()
  let now = 0
  while (now + 11 * HOUR < ABSOLUTE_LIFETIME_MS) {
    now += 11 * HOUR
    assert.ok(await findSession(t.db.db, value, at(now)), `alive after ${now / HOUR} h`)
  }
  assert.equal(await findSession(t.db.db, value, at(ABSOLUTE_LIFETIME_MS)), null)
})

test('an ended, malformed or unknown value names no session', async () => {
  const value = await newSession()
  await endSession(t.db.db, value, at(HOUR))
  assert.equal(await findSession(t.db.db, value, at(2 * HOUR)), null)
  assert.equal(await findSession(t.db.db, 'not a session', at(HOUR)), null)
  assert.equal(await findSession(t.db.db, 'A'.repeat(43), at(HOUR)), null)
})

test('the session reads the role as it is now, and the sweeper removes ended sessions', async () => {
  const value = await newSession('alice')
  const personId = ws.ids.alice as string
  await t.db.db.updateTable('people').set({ role: 'guest' }).where('id', '=', personId).execute()
  assert.equal((await findSession(t.db.db, value, at(HOUR)))?.role, 'guest')
  await t.db.db.updateTable('people').set({ role: 'member' }).where('id', '=', personId).execute()
  await sweepWebSessions(t.db.db, at(ABSOLUTE_LIFETIME_MS + 48 * HOUR))
  const left = await t.db.db
    .selectFrom('web_sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  assert.equal(Number(left.n), 0)
})
