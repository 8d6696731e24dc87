import assert from 'node:assert/strict'
import { test } from 'node:test'
import { readTime } from './question-times.ts'

// A Sunday, as the demo's day.
const NOW = new Date('2026-11-29T12:00:00.000Z')

function read(question: string) {
  const words = question.split(' ')
  const time = readTime(words, NOW)
  return (
    time && {
      words: time.at.map((i) => words[i]).join(' '),
      from: time.from?.toISOString().slice(0, 10) ?? null,
      to: time.to?.toISOString().slice(0, 10) ?? null,
    }
  )
}

test('days, months, spans, ranges and open ends, as windows of whole days', () => {
  assert.deepEqual(read('due by 12/4'), { words: 'by 12/4', from: null, to: '2026-12-05' })
  assert.deepEqual(read('due before next friday'), {
    words: 'before next friday',
    from: null,
    to: '2026-12-04',
  })
  assert.deepEqual(read('due on mobile in december'), {
    words: 'in december',
    from: '2026-12-01',
    to: '2027-01-01',
  })
  assert.deepEqual(read('due in the next two weeks'), {
    words: 'in the next two weeks',
    from: '2026-11-29',
    to: '2026-12-14',
  })
  assert.deepEqual(read('finished in the last 3 days'), {
    words: 'in the last 3 days',
    from: '2026-11-26',
    to: '2026-11-30',
  })
  assert.deepEqual(read('due between dec 7 and dec 11'), {
    words: 'between dec 7 and dec 11',
    from: '2026-12-07',
    to: '2026-12-12',
  })
  assert.deepEqual(read('created since nov 1'), {
    words: 'since nov 1',
    from: '2026-11-01',
    to: null,
  })
})

test('the year of a date without one: ahead when the question looks ahead, else the nearest', () => {
  assert.equal(read('the november outage')?.from, '2026-11-01')
  assert.equal(read('due jan 5')?.from, '2027-01-05')
})

test('words that are no day are not read as one', () => {
  for (const question of ['what is on my plate right now', 'who may approve this', 'apple pay'])
    assert.equal(read(question), null, question)
})

test('the month of today is this one, even where the question looks ahead', () => {
  assert.deepEqual(read('brand tasks due in november but not finished'), {
    words: 'in november',
    from: '2026-11-01',
    to: '2026-12-01',
  })
  assert.equal(read('due in december')?.from, '2026-12-01')
  // Looking ahead moves a date a year on only up to half a year: October is last month's past.
  assert.equal(read('due in october')?.from, '2026-10-01')
  assert.equal(read('due in january')?.from, '2027-01-01')
  assert.deepEqual(read('what was due between november 1 and november 10'), {
    words: 'between november 1 and november 10',
    from: '2026-11-01',
    to: '2026-11-11',
  })
  assert.equal(read('what got closed out in onboarding since the first')?.from, '2026-11-01')
  assert.equal(read('the first week of december')?.from, '2026-12-01')
})

test('a range from now: between now and a day, from today until one', () => {
  assert.deepEqual(read('whats coming due between now and 12/4'), {
    words: 'between now and 12/4',
    from: '2026-11-29',
    to: '2026-12-05',
  })
  assert.deepEqual(read('due from today until friday'), {
    words: 'from today until friday',
    from: '2026-11-29',
    to: '2026-12-05',
  })
})

test('an article before a date belongs to it: "since the 1st of November"', () => {
  assert.deepEqual(read('completed on the brand project since the 1st of november'), {
    words: 'since the 1st of november',
    from: '2026-11-01',
    to: null,
  })
})

test('a day said by its ordinal alone: this month looking back, the coming one looking ahead', () => {
  assert.deepEqual(read('what was finished since the 1st'), {
    words: 'since the 1st',
    from: '2026-11-01',
    to: null,
  })
  assert.equal(read('due by the 4th')?.to, '2026-12-05')
  assert.equal(read('due by the 30th')?.to, '2026-12-01')
})
