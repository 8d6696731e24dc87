import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DEMO_SEARCH_DAY, type DemoTask, demoSearch } from '../harness/demo-search.ts'

// Questions read by their structure more than by their words (docs/api.md, "Filters in the
// query"): a bare first name where the question asks about work, a status denied, "for me", a
// kind named as a scope, a project named by some of its words.

const world = demoSearch(['elena'])
const { ask, keys, tasks } = world

const today = DEMO_SEARCH_DAY
const open = (task: DemoTask) => task.status !== 'done'
const overdue = (task: DemoTask) =>
  open(task) && task.due !== undefined && task.due !== null && task.due < today

test("a bare first name asks for that person's work when the question is about work", async () => {
  const answer = await ask('jonas tasks which are late')
  assert.equal(answer.interpreted.filters.assignee, world.ws.ids.jonas)
  assert.deepEqual(
    keys(answer).sort(),
    tasks((task) => task.assignee === 'jonas' && overdue(task)),
  )
  const busy = await ask('Farid working on which tickets')
  assert.equal(busy.interpreted.filters.assignee, world.ws.ids.farid)
  assert.deepEqual(busy.interpreted.filters.status, ['todo', 'in_progress', 'blocked'])
  const got = await ask("what's elena got open")
  assert.equal(got.interpreted.filters.assignee, world.ws.ids.elena)
  // A last name two people share names nobody; a name in a question not about work stays a word.
  assert.equal((await ask('haddad tasks')).interpreted.filters.assignee, undefined)
  assert.equal(
    (await ask('what did pablo propose about the work')).interpreted.filters.assignee,
    undefined,
  )
})

test('a denied status is the work still open: "not done", "hasn\'t been finished", "unfinished"', async () => {
  for (const query of [
    'brand tasks not done',
    "brand tasks that still haven't been finished",
    'unfinished brand tasks',
  ]) {
    const answer = await ask(query)
    assert.deepEqual(answer.interpreted.filters.status, ['todo', 'in_progress', 'blocked'], query)
    assert.equal(answer.interpreted.filters.project_id, world.ws.ids.brand, query)
  }
})

test('"for me" is the asker\'s, as "my" is, when the question asks for tasks', async () => {
  const answer = await ask('which tasks are late for me', 'elena-key')
  assert.equal(answer.interpreted.filters.assignee, 'me')
  assert.deepEqual(
    keys(answer).sort(),
    tasks((task) => task.assignee === 'elena' && overdue(task)),
  )
})

test('a kind the filters rule out is a scope: "unassigned tickets, not done, all projects"', async () => {
  const answer = await ask('unassigned tickets, not done, all projects', 'elena-key')
  assert.ok(answer.interpreted.types.includes('task'))
  assert.ok(answer.results.length > 0)
  assert.equal(answer.interpreted.filters.assignee, 'none')
})

test('a project named by some of its words: its noun left out, the most of its words', async () => {
  const overdueThere = await ask(
    'data migration project - which tickets are overdue please?',
    'elena-key',
  )
  assert.equal(overdueThere.interpreted.filters.project_id, world.ws.ids.dataplat)
  const covering = await ask('brand tasks due in november but not finish', 'elena-key')
  assert.equal(covering.interpreted.filters.project_id, world.ws.ids.brand)
  assert.equal(covering.interpreted.filters.due_after, '2026-11-01')
})

test('what is lacking, said any way: a word of lacking, then whom or what date', async () => {
  const unassigned = tasks((task) => task.project === 'brand' && !task.assignee)
  assert.ok(unassigned.length > 0)
  const which = await ask('which of the brand tasks nobody has been assigned to yet')
  assert.deepEqual(keys(which).sort(), unassigned)
  for (const query of [
    'which of the brand tasks nobody has been assigned to yet',
    'brand tasks no one owns',
    'open brand tasks without an owner',
  ]) {
    const answer = await ask(query)
    assert.equal(answer.interpreted.filters.assignee, 'none', query)
  }
  for (const query of [
    'onboarding tasks nobody put a due date on',
    "onboarding tasks that don't have a deadline",
  ]) {
    const answer = await ask(query)
    assert.equal(answer.interpreted.filters.due, 'none', query)
    assert.equal(answer.interpreted.filters.project_id, world.ws.ids.onboarding, query)
  }
})

test('a status right after the question word is what is asked: "whats blocked there"', async () => {
  const answer = await ask('brand refresh - still paused? whats blocked there')
  assert.deepEqual(answer.interpreted.filters.status, ['blocked'])
  assert.equal(answer.interpreted.filters.project_id, world.ws.ids.brand)
})

test('short forms of a chat box are read as their words: "due b4 fri", "this wk"', async () => {
  const answer = await ask('checkout stuff due b4 fri')
  assert.equal(answer.interpreted.filters.due_before, '2026-12-03')
  assert.equal(answer.interpreted.filters.project_id, world.ws.ids.checkout)
})

test('a word of finishing after its verb is done, in any form; a workload is open work', async () => {
  const finished = await ask('onboarding, what was finish since the 1st?')
  assert.deepEqual(finished.interpreted.filters.status, ['done'])
  assert.equal(finished.interpreted.filters.completed_after, '2026-11-01T00:00:00.000Z')
  const load = await ask('jonas workload')
  assert.equal(load.interpreted.filters.assignee, world.ws.ids.jonas)
  assert.deepEqual(load.interpreted.filters.status, ['todo', 'in_progress', 'blocked'])
  const both = await ask('what Tara Singh busy with')
  assert.equal(both.interpreted.filters.assignee, world.ws.ids.tara)
  const without = await ask('pricing tasks w/o a deadline')
  assert.equal(without.interpreted.filters.due, 'none')
})

test('two statuses that share none ask for both; a lack far from its object is no lack', async () => {
  const both = await ask(
    'What is Jonas Weber working on at the moment, and which of his items are blocked?',
  )
  assert.deepEqual([...both.interpreted.filters.status].sort(), ['blocked', 'in_progress'])
  const far = await ask('which tasks not marked done whose due date is before today')
  assert.equal(far.interpreted.filters.due, undefined)
})
