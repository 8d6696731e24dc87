import assert from 'node:assert/strict'
import { test } from 'node:test'
import { shapeBreach } from './json-shape.ts'

const nested = (levels: number): unknown =>
  JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`)
const limits = { depth: 3, members: 3, items: 3 }

test('a value within every bound has no breach', () => {
  assert.equal(shapeBreach(nested(3), limits), null)
  assert.equal(shapeBreach([[[1]]], limits), null)
  assert.equal(shapeBreach('text'), null)
  assert.equal(shapeBreach({ a: [1, { b: 'c' }], d: null }, limits), null)
  assert.equal(shapeBreach({ a: 1, b: 2, c: 3 }, limits), null)
})

test('too deep, too many members or too many items is found, with where', () => {
  assert.deepEqual(shapeBreach(nested(4), limits), {
    path: '',
    message: 'nests more than 3 levels deep',
  })
  assert.equal(shapeBreach([[[[]]]], limits)?.message, 'nests more than 3 levels deep')
  assert.equal(shapeBreach(nested(200_000))?.message, 'nests more than 64 levels deep')
  assert.deepEqual(shapeBreach({ x: { 'a/b~': { a: 1, b: 2, c: 3, d: 4 } } }, limits), {
    path: '/x/a~1b~0',
    message: 'has more than 3 members',
  })
  assert.deepEqual(shapeBreach({ list: [1, 2, 3, 4] }, limits), {
    path: '/list',
    message: 'has more than 3 items',
  })
})
