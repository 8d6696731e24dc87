import assert from 'node:assert/strict'
import { test } from 'node:test'
import { keyResultProgress, objectiveProgress } from './okr-progress.ts'

test('key result progress runs from start to target, clamped, in either direction', () => {
  assert.equal(keyResultProgress({ start: 0, target: 1000, current: 250 }), 0.25)
  assert.equal(keyResultProgress({ start: 40, target: 5, current: 12 }), 0.8)
  assert.equal(keyResultProgress({ start: 0, target: 10, current: 20 }), 1)
  assert.equal(keyResultProgress({ start: 0, target: 10, current: -3 }), 0)
})

test('objective progress is the mean of its key results', () => {
  assert.equal(
    objectiveProgress([
      { start: 0, target: 10, current: 5 },
      { start: 0, target: 4, current: 4 },
    ]),
    0.75,
  )
  assert.equal(objectiveProgress([]), 0)
})
