import assert from 'node:assert/strict'
import { test } from 'node:test'
import { demoSearch } from '../harness/demo-search.ts'

// Verbs about people in any form (docs/api.md, "Filters in the query"): compromise gives their
// base form, and one table says what each asks for: "finishes" and "finished" as "finish",
// "is shipping" as work under way, "writes" as "write" (what they said).

const world = demoSearch(['elena'])
const { ask, keys, tasks } = world

test('"what has Kemi finished" and "what Kemi finishes": her done tasks', async () => {
  const done = tasks((task) => task.status === 'done' && task.assignee === 'kemi')
  assert.ok(done.length > 0)
  for (const query of ['what has Kemi finished', 'what Kemi finishes', 'what did kemi finished']) {
    const answer = await ask(query)
    assert.equal(answer.interpreted.filters.assignee, world.ws.ids.kemi, query)
    assert.deepEqual(answer.interpreted.filters.status, ['done'], query)
    assert.deepEqual(keys(answer).sort(), done, query)
  }
})

test('"tasks Hugo is shipping": his work under way, or his open work when none is', async () => {
  const working = tasks((task) => task.status === 'in_progress' && task.assignee === 'hugo')
  const expected =
    working.length > 0
      ? working
      : tasks((task) => task.status !== 'done' && task.assignee === 'hugo')
  for (const query of ['tasks Hugo is shipping', 'what is Hugo closing']) {
    const answer = await ask(query)
    assert.equal(answer.interpreted.filters.assignee, world.ws.ids.hugo, query)
    assert.deepEqual(keys(answer).sort(), expected, query)
  }
})

test('"anything Elena writes about the payment providers": her comments', async () => {
  const answer = await ask('anything Elena writes about the payment providers')
  assert.equal(answer.interpreted.filters.created_by, world.ws.ids.elena)
  assert.deepEqual(answer.interpreted.types, ['comment'])
  assert.ok(answer.results.length > 0)
  for (const hit of answer.results) assert.equal(hit.type, 'comment')
})

test('"what did I finish last week": the asker\'s done tasks', async () => {
  const answer = await ask('what did I finish last week', 'elena-key')
  assert.equal(answer.interpreted.filters.assignee, 'me')
  assert.deepEqual(answer.interpreted.filters.status, ['done'])
  assert.equal(answer.interpreted.filters.completed_after, '2026-11-16T00:00:00.000Z')
  const finished = tasks(
    (task) =>
      task.assignee === 'elena' &&
      task.status === 'done' &&
      (task.completed_at ?? '') >= '2026-11-16' &&
      (task.completed_at ?? '') < '2026-11-23',
  )
  assert.ok(finished.length > 0)
  assert.deepEqual(keys(answer).sort(), finished)
})

test('a plural or a noun in "-ing" names nobody: "release posts", "shipping costs"', async () => {
  for (const query of [
    'show customer comments about pricing',
    'show release posts',
    'checkout shipping costs',
    'what are beta users saying about the new mobile app',
  ]) {
    const answer = await ask(query)
    assert.equal(answer.interpreted.filters.created_by, undefined, query)
    assert.equal(answer.interpreted.filters.assignee, undefined, query)
    assert.equal(answer.interpreted.filters.status, undefined, query)
  }
})
