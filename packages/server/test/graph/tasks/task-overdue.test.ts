import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { ManualClock } from '../../../src/lib/clock.ts'
import { importOk, tokenOf, writableBundle } from '../../harness/bundles.ts'
import { callToolInProcess } from '../../harness/mcp-inject.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'

// A task record says whether it is overdue, as a search hit does (lib/overdue.ts): due before
// today's UTC day and not done, worked out when it is read, so it turns true with no write.

let t: TestApp
let ws: ImportResult
const clock = new ManualClock('2026-12-02T09:00:00Z')
const as = (key: string) => client(t.app, tokenOf(ws, key))

before(async () => {
  t = await startTestApp({ clock })
  const base = writableBundle()
  const task = (key: string, fields: Record<string, string>) => ({
    key,
    title: key,
    status: 'todo' as const,
    project: 'open',
    creator: 'alice',
    ...fields,
  })
  ws = await importOk(t.db.db, {
    ...base,
    tasks: [
      ...(base.tasks ?? []),
      task('past', { due: '2026-12-01' }),
      task('past-blocked', { due: '2026-11-01', status: 'blocked' }),
      task('done', { due: '2026-11-20', status: 'done' }),
      task('today', { due: '2026-12-02' }),
      task('undated', {}),
      task('later', { due: '2026-12-03' }),
    ],
  })
})
after(() => t.close())

// The open project's list rows as bundle key → overdue.
async function overdueByKey(): Promise<Record<string, boolean>> {
  const reply = await as('alice-key').get(`/v1/tasks?project_id=${ws.ids.open}&limit=50`)
  assert.equal(reply.status, 200, reply.body)
  const keyOf = (id: string) => Object.entries(ws.ids).find(([, known]) => known === id)?.[0]
  return Object.fromEntries(
    reply.json.data.map((row: { id: string; overdue: boolean }) => [keyOf(row.id), row.overdue]),
  )
}

test('list rows are overdue when due before today and not done; never otherwise', async () => {
  assert.deepEqual(await overdueByKey(), {
    't-open': true,
    past: true,
    'past-blocked': true,
    done: false,
    today: false,
    undated: false,
    later: false,
  })
})

test("a write's answer and its event say whether the task is overdue at the write", async () => {
  const moved = await as('alice-key').patch(`/v1/tasks/${ws.ids.undated}`, { due: '2026-11-30' })
  assert.equal(moved.status, 200, moved.body)
  assert.equal(moved.json.overdue, true)
  clock.advance(1000)
  const done = await as('alice-key').post(`/v1/tasks/${ws.ids.undated}/complete`)
  assert.equal(done.status, 200, done.body)
  assert.equal(done.json.overdue, false)
  const events = await t.db.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('subject_id', '=', ws.ids.undated as string)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  const overdue = events.map((event) => {
    const data = typeof event.data === 'string' ? JSON.parse(event.data) : event.data
    return [event.type, data.object.overdue]
  })
  assert.deepEqual(overdue, [
    ['task.updated', true],
    ['task.completed', false],
  ])
})

test('the record says the same, and overdue turns true the next day with no write', async () => {
  const record = await as('alice-key').get(`/v1/resources/${ws.ids.today}`)
  assert.equal(record.status, 200, record.body)
  assert.equal(record.json.overdue, false)
  clock.advance(24 * 3_600_000)
  const next = await as('alice-key').get(`/v1/resources/${ws.ids.today}`)
  assert.equal(next.json.overdue, true)
  assert.equal(next.json.updated_at, record.json.updated_at, 'nothing was written')
  const rows = await overdueByKey()
  assert.equal(rows.today, true)
  assert.equal(rows.later, false, 'due today now')
})

test("MCP list rows say overdue beside the due date, as the REST rows' field does", async () => {
  const answer = await callToolInProcess(t.app, tokenOf(ws, 'alice-key'), 'list', {
    type: 'task',
    project_id: ws.ids.open,
    limit: 50,
  })
  assert.ok(!answer.isError, JSON.stringify(answer))
  const text = answer.content.map((part) => part.text ?? '').join('\n')
  // The clock has moved on a day in the test before: the REST rows say which are overdue now.
  const rest = await overdueByKey()
  const line = (title: string) => text.split('\n').find((row) => row.includes(`“${title}”`)) ?? ''
  for (const [title, overdue] of Object.entries(rest)) {
    if (title === 't-open') continue
    assert.equal(/ overdue /.test(line(title)), overdue, `${title}: ${line(title)}`)
  }
  assert.ok(Object.values(rest).includes(false) && Object.values(rest).includes(true))
})
