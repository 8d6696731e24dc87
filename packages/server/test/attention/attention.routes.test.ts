import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import type { SummaryBody } from '../../src/summaries/summary.schemas.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { assertValidSummary } from '../harness/summary-shape.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

let t: TestApp
let ws: ImportResult
const clock = new ManualClock('2026-11-22T12:00:00Z')

before(async () => {
  t = await startTestApp({ clock })
  const bundle = writableBundle()
  bundle.tasks?.push(
    // Alice's: overdue and blocked, blocked only, due soon, due later, done late.
    {
      key: 'late-blocked',
      title: 'Late and blocked',
      status: 'blocked',
      due: '2026-11-10',
      project: 'secret',
      creator: 'alice',
      assignee: 'alice',
    },
    {
      key: 'stuck',
      title: 'Stuck without date',
      status: 'blocked',
      project: 'open',
      creator: 'alice',
      assignee: 'alice',
    },
    {
      key: 'soon',
      title: 'Due on Tuesday',
      status: 'in_progress',
      due: '2026-11-24',
      project: 'open',
      creator: 'alice',
      assignee: 'alice',
    },
    {
      key: 'later',
      title: 'Due next month',
      status: 'todo',
      due: '2026-12-20',
      project: 'open',
      creator: 'alice',
      assignee: 'alice',
    },
    {
      key: 'done-late',
      title: 'Done though late',
      status: 'done',
      due: '2026-11-01',
      project: 'open',
      creator: 'alice',
      assignee: 'alice',
    },
    // Bob's, in the secret project Gus cannot open.
    {
      key: 'bob-late',
      title: 'Hidden late work',
      status: 'todo',
      due: '2026-11-15',
      project: 'secret',
      creator: 'alice',
      assignee: 'bob',
    },
  )
  bundle.okrs?.push({
    key: 'o-behind',
    title: 'Cut churn',
    session: '2026-Q4',
    owner: 'alice',
    visibility: 'workspace',
    key_results: [{ key: 'kr-behind', title: 'Churn', target: 100, current: 10 }],
  })
  // Imported weeks before the clock's now: the import's own activity is old news.
  bundle.api_keys?.push({ key: 'comments-only', person: 'alice', scopes: ['comment:read'] })
  ws = await importOk(t.db.db, bundle, { now: new Date('2026-11-01T00:00:00Z') })
})
after(() => t.close())

const attention = (key: string, query = '') =>
  client(t.app, tokenOf(ws, key)).get(`/v1/attention${query}`)

function wellFormed(reply: { status: number; body: string }, maxTokens = 2500): SummaryBody {
  assert.equal(reply.status, 200, reply.body)
  return assertValidSummary(reply.body, maxTokens)
}

// The ranked items: each link's reason and the id of what it cites.
const ranked = (body: SummaryBody) =>
  body.links.map((link) => [link.rel, body.sources[link.source - 1]?.id])

test('for me: objectives behind, then overdue, blocked and due-soon tasks, cited and counted', async () => {
  const body = wellFormed(await attention('alice-key'))
  assert.equal(body.id, ws.ids.alice)
  assert.equal(body.type, 'person')
  assert.equal(body.title, 'Alice Member')
  assert.deepEqual(ranked(body), [
    ['off_track', ws.ids['o-behind']],
    ['at_risk', ws.ids.o1],
    ['overdue', ws.ids['late-blocked']],
    ['blocked', ws.ids.stuck],
    ['due_soon', ws.ids.soon],
  ])
  assert.match(
    body.text,
    /^Needing attention as of 2026-11-22: open tasks: 1 overdue, 2 blocked and 1 due by 2026-11-28; objectives this period: 1 off track and 1 at risk; no change by anyone but you since 2026-11-15\./,
  )
  assert.match(
    body.text,
    /“Late and blocked” \[\d\] was due 2026-11-10, 12 days ago \(overdue\), and is blocked; in “Secret project” \[\d\]\./,
  )
  assert.match(
    body.text,
    /Objective “Cut churn” \[\d\] \(2026-Q4\) is off track: 10% done where 57% was expected by now\./,
  )
  assert.ok(!body.text.includes('Due next month') && !body.text.includes('Done though late'))
  assert.deepEqual(
    { ...body.facts, changes_since: undefined },
    {
      overdue_tasks: 1,
      blocked_tasks: 2,
      due_soon_tasks: 1,
      off_track_okrs: 1,
      at_risk_okrs: 1,
      changes_since: undefined,
    },
  )
  assert.equal(body.facts.changes_since, '2026-11-15T12:00:00.000Z')
})

test('what others changed since a time is told; the caller’s own changes are not', async () => {
  const bob = client(t.app, tokenOf(ws, 'bob-key'))
  const alice = client(t.app, tokenOf(ws, 'alice-key'))
  clock.advance(60_000)
  const own = await alice.post('/v1/comments', { resource_id: ws.ids.stuck, body: 'My own note' })
  assert.equal(own.status, 201, own.body)
  clock.advance(60_000)
  const other = await bob.post('/v1/comments', {
    resource_id: ws.ids.stuck,
    body: 'Unblocked soon?',
  })
  assert.equal(other.status, 201, other.body)
  const body = wellFormed(await attention('alice-key', '?since=2026-11-22T00:00:00Z'))
  assert.match(body.text, /changes by anyone but you since 2026-11-22/)
  assert.match(body.text, /The latest change: on 2026-11-22, “Bob Member” commented/)
  assert.ok(!body.text.includes('My own note'), body.text)
  assert.equal(ranked(body).at(-1)?.[0], 'changed')
  // Bob's view of Alice: her tasks, and what others (Alice among them) changed on them.
  const bobsView = wellFormed(
    await attention('bob-key', `?for=${ws.ids.alice}&since=2026-11-22T00:00:00Z`),
  )
  assert.match(bobsView.text, /“Alice Member” commented/)
  assert.ok(!bobsView.text.includes('“Bob Member” commented'), bobsView.text)
})

test('a project, a team and the workspace are foci too', async () => {
  const project = wellFormed(await attention('alice-key', `?for=${ws.ids.open}`))
  assert.equal(project.title, 'Open project')
  assert.deepEqual(
    ranked(project)
      .filter(([rel]) => rel !== 'changed')
      .map(([, id]) => id),
    [ws.ids.stuck, ws.ids.soon],
  )
  assert.ok(!project.text.includes('in “Open project”'), 'the focus is not named again')
  const team = wellFormed(await attention('alice-key', `?for=${ws.ids.eng}`))
  assert.equal(team.type, 'team')
  assert.ok(ranked(team).some(([, id]) => id === ws.ids['late-blocked']))
  assert.ok(!team.text.includes('Hidden late work'), 'Bob is not in the team')
  const workspace = wellFormed(await attention('alice-key', '?for=workspace'))
  assert.equal(workspace.type, 'workspace')
  assert.equal(workspace.title, 'Test workspace')
  assert.match(
    workspace.text,
    /“Hidden late work” \[\d\] was due 2026-11-15, 7 days ago \(overdue\); assigned to “Bob Member” \[\d\]/,
  )
})

test('nothing the caller cannot open is named or counted', async () => {
  const gus = wellFormed(await attention('gus-key', '?for=workspace'))
  for (const hidden of ['Secret', 'Hidden late work', 'Late and blocked'])
    assert.ok(!JSON.stringify(gus).includes(hidden), hidden)
  assert.equal(gus.facts.overdue_tasks, 0)
  // A hidden project is the same 404 as an unknown one.
  const hidden = await attention('gus-key', `?for=${ws.ids.secret}`)
  const unknown = await attention('gus-key', '?for=prj_00000000000000000000000000')
  assert.equal(hidden.status, 404)
  assert.deepEqual({ ...hidden.json, request_id: null }, { ...unknown.json, request_id: null })
  // A token that may read tasks only names no project, objective, person or change.
  const narrow = wellFormed(await attention('narrow-key'))
  assert.equal(narrow.title, 'You')
  assert.ok(!/project|Objective|Alice/.test(narrow.text), narrow.text)
  assert.deepEqual(Object.keys(narrow.facts), ['overdue_tasks', 'blocked_tasks', 'due_soon_tasks'])
})

test('bad foci and values are 4xx problems; a token that reads none of it is a 403', async () => {
  const malformed = await attention('alice-key', '?for=nonsense')
  assert.equal(malformed.status, 422)
  assert.equal(malformed.json.errors[0].path, '/for')
  const canvas = await attention('alice-key', `?for=${ws.ids.plan}`)
  assert.equal(canvas.status, 422)
  const bot = wellFormed(await attention('bot-token'))
  assert.equal(bot.type, 'workspace')
  assert.equal((await attention('bot-token', '?for=me')).status, 422)
  assert.equal((await attention('alice-key', '?since=yesterday')).status, 422)
  assert.equal((await attention('alice-key', '?limit=0')).status, 422)
  assert.equal((await attention('alice-key', '?max_tokens=99')).status, 422)
  assert.equal((await attention('alice-key', '?colour=red')).status, 422)
  const unreadable = await attention('comments-only')
  assert.equal(unreadable.status, 403)
  assert.deepEqual(unreadable.json.required_scopes, ['task:read', 'okr:read', 'activity:read'])
})

test('any budget from 100 tokens is kept, giving up the least pressing first', async () => {
  const full = wellFormed(await attention('alice-key', '?limit=20'))
  for (const maxTokens of [100, 200, 400, 700]) {
    const body = wellFormed(
      await attention('alice-key', `?limit=20&max_tokens=${maxTokens}`),
      maxTokens,
    )
    assert.equal(body.truncated, true)
    assert.ok(full.text.startsWith(body.text.replace(/…$/, '')), body.text)
  }
})
