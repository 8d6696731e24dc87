import assert from 'node:assert/strict'
import { test } from 'node:test'
import { type DemoTask, demoSearch } from '../harness/demo-search.ts'

// Questions about people's work and about times, as people ask them (docs/api.md, "Filters in
// the query"): what someone is busy with, stuck on, finished or said; what the asker made; any
// date phrase. And a word left beside a filter only ranks: it never empties the answer.

const world = demoSearch(['elena', 'ben'])
const { ask, keys, tasks } = world
const open = (task: DemoTask) => task.status !== 'done'

test('what someone is busy with: their open tasks', async () => {
  // Asked by Ben, who opens every task given to him.
  const answer = await ask('what is Ben busy with', 'ben-key')
  assert.equal(answer.interpreted.filters.assignee, world.ws.ids.ben)
  assert.deepEqual(answer.interpreted.filters.status, ['todo', 'in_progress', 'blocked'])
  assert.deepEqual(
    keys(answer).sort(),
    tasks((task) => open(task) && task.assignee === 'ben'),
  )
})

test('what someone is working on: in progress, or their open work when nothing is', async () => {
  const working = tasks((task) => task.status === 'in_progress' && task.assignee === 'hugo')
  const answer = await ask('what is Hugo working on')
  const expected =
    working.length > 0 ? working : tasks((task) => open(task) && task.assignee === 'hugo')
  assert.deepEqual(keys(answer).sort(), expected)
})

test('what someone is stuck on, and what they finished in a span of days', async () => {
  const stuck = await ask('what is Gita stuck on')
  assert.deepEqual(
    keys(stuck).sort(),
    tasks((t) => t.status === 'blocked' && t.assignee === 'gita'),
  )
  const done = await ask('what did kemi finish in the last two weeks')
  assert.deepEqual(done.interpreted.filters.status, ['done'])
  assert.equal(done.interpreted.filters.completed_after, '2026-11-15T00:00:00.000Z')
  assert.ok(
    keys(done).every(
      (key) => world.bundle.tasks?.find((task) => task.key === key)?.assignee === 'kemi',
    ),
  )
})

test('what someone said: their comments, and what the asker made', async () => {
  const said = await ask('what did Elena say about the payment providers')
  assert.equal(said.interpreted.filters.created_by, world.ws.ids.elena)
  assert.equal(said.interpreted.filters.created_by_name, 'Elena Petrova')
  assert.deepEqual(said.interpreted.types, ['comment'])
  for (const hit of said.results) assert.equal(hit.type, 'comment')
  const made = await ask('which tasks did I create', 'elena-key')
  assert.ok(made.results.length > 0, JSON.stringify(made.interpreted))
  assert.equal(made.interpreted.filters.created_by, 'me')
  assert.deepEqual(
    keys(made)
      .filter((key) => world.bundle.tasks?.some((task) => task.key === key))
      .sort(),
    tasks((task) => task.creator === 'elena'),
  )
})

test('any date phrase: a month, a span from today, a range, a deadline', async () => {
  const december = await ask('what is due on mobile in december')
  assert.equal(december.interpreted.filters.due_after, '2026-12-01')
  assert.equal(december.interpreted.filters.due_before, '2026-12-31')
  const span = await ask('pricing stuff due in the next two weeks')
  assert.equal(span.interpreted.filters.due_after, '2026-11-29')
  assert.equal(span.interpreted.filters.due_before, '2026-12-13')
  assert.ok(span.results.length > 0, 'a word beside the filters ("stuff") only ranks')
  const range = await ask('mobile tasks due between dec 7 and dec 11')
  assert.equal(range.interpreted.filters.due_after, '2026-12-07')
  assert.equal(range.interpreted.filters.due_before, '2026-12-11')
  const deadline = await ask('what needs to be done by 12/4')
  assert.equal(deadline.interpreted.filters.due_before, '2026-12-04')
})

test('what is missing: tasks nobody is assigned, tasks without a due date', async () => {
  const unassigned = await ask('which tasks have nobody assigned?')
  assert.equal(unassigned.interpreted.filters.assignee, 'none')
  assert.ok(unassigned.results.length > 0)
  for (const key of keys(unassigned))
    assert.equal(world.bundle.tasks?.find((task) => task.key === key)?.assignee ?? null, null, key)
  const undated = await ask('mobile tasks without a due date')
  assert.equal(undated.interpreted.filters.due, 'none')
  assert.ok(undated.results.length > 0)
  for (const key of keys(undated))
    assert.equal(world.bundle.tasks?.find((task) => task.key === key)?.due ?? null, null, key)
  // The same, asked exactly.
  const exact = await ask({ query: 'mobile', filters: { assignee: 'none', due: 'none' } })
  for (const hit of exact.results) assert.equal(hit.type, 'task')
})
