import assert from 'node:assert/strict'
import { test } from 'node:test'
import { jsonDiff } from './json-diff.ts'

test('only changed fields appear, with their old and new values', () => {
  assert.deepEqual(jsonDiff({ a: 1, b: [1, 2], c: 'x' }, { a: 1, b: [1, 3], d: true }), {
    b: { from: [1, 2], to: [1, 3] },
    c: { from: 'x', to: null },
    d: { from: null, to: true },
  })
})

test('a creation diffs from nothing; dates compare by value', () => {
  const at = new Date('2026-11-22T10:00:00Z')
  assert.deepEqual(jsonDiff(null, { name: 'k', at }), {
    at: { from: null, to: '2026-11-22T10:00:00.000Z' },
    name: { from: null, to: 'k' },
  })
  assert.deepEqual(jsonDiff({ at }, { at: new Date(at) }), {})
})
