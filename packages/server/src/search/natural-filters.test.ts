import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseQuestion } from './question-parser.ts'

// A Sunday, as the demo's day.
const NOW = new Date('2026-11-29T12:00:00.000Z')
const filtersOf = (question: string) => parseQuestion(question, NOW).filters

test('a time after "due" is of the due date however many words come between', () => {
  const open = ['todo', 'in_progress', 'blocked']
  const twoWeeks = { due_after: '2026-11-29', due_before: '2026-12-13', status: open }
  assert.deepEqual(filtersOf("what's due on mobile in the next two weeks"), twoWeeks)
  assert.deepEqual(filtersOf("what's coming due on the mobile app in the next two weeks"), twoWeeks)
  // A word of finishing between them makes it a time of finishing.
  const finished = filtersOf('tasks due soon that were finished last week')
  assert.equal(finished.due_after, undefined)
  assert.equal(finished.completed_after, '2026-11-16T00:00:00.000Z')
})

test('"I" as the subject of work is the asker; "I" that only frames the question is not', () => {
  assert.deepEqual(filtersOf('what have i got overdue'), {
    due_before: '2026-11-28',
    status: ['todo', 'in_progress', 'blocked'],
    assignee: 'me',
  })
  assert.equal(filtersOf('what did I get done in November?').assignee, 'me')
  assert.equal(
    filtersOf("I'd like to know which tasks on the brand project are blocked").assignee,
    undefined,
  )
  assert.equal(filtersOf('is anything due tomorrow that I should be aware of').assignee, undefined)
  // A kind named is what is asked for, not the asker's work.
  assert.equal(filtersOf('what docs do I have').assignee, undefined)
})

test('"what did we close out", "what have they shipped": everyone\'s finished work', () => {
  const closed = filtersOf('what did we close out in checkout since nov 1')
  assert.deepEqual(closed.status, ['done'])
  assert.equal(closed.completed_after, '2026-11-01T00:00:00.000Z')
  assert.equal(closed.assignee, undefined)
  assert.deepEqual(filtersOf('what have they shipped this month').status, ['done'])
  // "close" as a word of nearness is not of finishing.
  assert.equal(filtersOf('crash free target for mobile, are we close').status, undefined)
})

test('a kind after "our", "my", "all" or "every", one word between allowed, is what is listed', () => {
  assert.deepEqual(parseQuestion('how are we doing on our Q4 goals overall?', NOW).types, ['okr'])
  assert.deepEqual(parseQuestion('all the docs', NOW).types, ['canvas'])
})

test('"anything blocked?" asks for what is blocked', () => {
  assert.deepEqual(filtersOf('kemi anything blocked?').status, ['blocked'])
  assert.deepEqual(filtersOf('anything the design team is blocked on?').status, ['blocked'])
})

test('what someone asked, raised, suggested or proposed is what they said', () => {
  for (const verb of ['asked', 'raised', 'suggested', 'proposed']) {
    const read = parseQuestion(`what has Cole ${verb} on the project`, NOW)
    assert.deepEqual(read.person, { words: ['cole'], role: 'creator' }, verb)
  }
})
