import assert from 'node:assert/strict'
import { test } from 'node:test'
import { nestsDeeperThan } from './json-depth.ts'

const nested = (levels: number) => JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`)

test('counts levels of objects and arrays, however deep, without recursion', () => {
  assert.equal(nestsDeeperThan(nested(3), 3), false)
  assert.equal(nestsDeeperThan(nested(4), 3), true)
  assert.equal(nestsDeeperThan([[[1]]], 3), false)
  assert.equal(nestsDeeperThan([[[[]]]], 3), true)
  assert.equal(nestsDeeperThan(nested(200_000)), true)
  assert.equal(nestsDeeperThan('text'), false)
  assert.equal(nestsDeeperThan({ a: [1, { b: 'c' }], d: null }, 3), false)
})
