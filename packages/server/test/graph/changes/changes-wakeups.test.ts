import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { systemClock } from '../../../src/lib/clock.ts'
import { importOk, tokenOf, writableBundle } from '../../harness/bundles.ts'
import { pollsWaiting } from '../../harness/polls-waiting.ts'
import { StatementLog } from '../../harness/statement-log.ts'
import { client, type Reply, startTestApp, type TestApp } from '../../harness/test-app.ts'

// Long polls are woken by what changes, not by re-reading on a timer (docs/changes.md, "Long
// polling"). Counted in statements the app sends while polls wait: idle polls read nothing, and
// one commit wakes them to one scan each and one shared numbering pass. Re-reading on a timer,
// idle polls kept the database busy for nothing.

const POLLS = 10
// Marks of the two statements a poll's read sends: its scan, and numbering's check for entries
// without a position.
const SCAN = 'with scanned as'
const NUMBERING = 'position is null'

const log = new StatementLog()
let t: TestApp
let ws: ImportResult

before(async () => {
  t = await startTestApp({ plugin: log, clock: systemClock })
  ws = await importOk(t.db.db, writableBundle())
})
after(() => t.close())

const as = (key: string) => client(t.app, tokenOf(ws, key))
const enc = encodeURIComponent

/** Starts `POLLS` long polls from the feed's end as Alice, and lets them all reach their wait. */
async function startPolls(seconds: number): Promise<Promise<Reply>[]> {
  const cursor = (await as('alice-key').get('/v1/changes')).json.next_cursor
  const polls = Array.from({ length: POLLS }, () =>
    as('alice-key').get(`/v1/changes?cursor=${enc(cursor)}&wait=${seconds}`),
  )
  await pollsWaiting(t.deps, ws.workspace_id, POLLS)
  return polls
}

test('idle long polls read nothing while they wait, and a poll from the head reads nothing first', async () => {
  const first = await startPolls(1)
  log.clear()
  const answers = await Promise.all(first)
  for (const answer of answers) assert.deepEqual(answer.json.data, [], answer.body)
  assert.equal(log.count(SCAN), 0, `${log.statements.length} statements while idle`)
  assert.equal(log.count(NUMBERING), 0)
  // Asked again from where they were answered, the polls wait at once.
  const next = answers[0]?.json.next_cursor
  log.clear()
  const again = await Promise.all(
    Array.from({ length: POLLS }, () =>
      as('alice-key').get(`/v1/changes?cursor=${enc(next)}&wait=1`),
    ),
  )
  for (const answer of again) assert.equal(answer.status, 200, answer.body)
  assert.equal(log.count(SCAN), 0, `${log.statements.length} statements for ${POLLS} idle polls`)
  // What is left is authentication, on arrival and when the wait ends: a few statements a poll.
  assert.ok(log.statements.length <= POLLS * 6, `${log.statements.length} statements`)
})

test('a commit wakes every poll of its workspace to one scan each and one numbering pass', async () => {
  const polls = await startPolls(10)
  log.clear()
  const task = await as('alice-key').post('/v1/tasks', {
    title: 'Woken by this',
    project_id: ws.ids.open,
  })
  assert.equal(task.status, 201, task.body)
  const answers = await Promise.all(polls)
  for (const answer of answers)
    assert.deepEqual(
      answer.json.data.map((change: { resource_id: string }) => change.resource_id),
      [task.json.id],
    )
  assert.equal(log.count(SCAN), POLLS)
  assert.ok(log.count(NUMBERING) <= 2, `${log.count(NUMBERING)} numbering checks`)
})
