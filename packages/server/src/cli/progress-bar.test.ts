import assert from 'node:assert/strict'
import { test } from 'node:test'
import { progressLine } from './progress-bar.ts'

const line = (done: number, total: number, elapsedMs: number, phase = 'writing tasks') =>
  progressLine({ label: 'Importing', phase, done, total, elapsedMs })

test('a progress line names the phase and the count, and says nothing of time too early', () => {
  assert.equal(line(0, 0, 0, 'validating'), 'Importing: validating…')
  assert.equal(
    line(450, 1000, 500),
    `Importing: writing tasks [${'#'.repeat(14)}${'.'.repeat(16)}] 45% 450/1000`,
  )
  assert.doesNotMatch(line(5, 1000, 5000), /left/, 'under 1 % the rate means little')
})

test('the time left is the rest at the rate so far, in seconds, then minutes', () => {
  assert.match(line(250, 1000, 4000), /, about 12 s left$/)
  assert.match(line(100, 1000, 20_000), /, about 3 min left$/)
  assert.doesNotMatch(line(1000, 1000, 9000), /left/)
})
