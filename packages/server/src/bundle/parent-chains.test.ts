import assert from 'node:assert/strict'
import { test } from 'node:test'
import { followParents, parentsFirst } from './parent-chains.ts'

test('parents come first; depth counts from the root', () => {
  const items = [
    { key: 'c', parent: 'b' },
    { key: 'b', parent: 'a' },
    { key: 'a', parent: null },
    { key: 'x', parent: 'missing' },
  ]
  assert.deepEqual(
    parentsFirst(items, (i) => i.parent).map((i) => i.key),
    ['a', 'x', 'b', 'c'],
  )
  assert.equal(followParents(items, (i) => i.parent).depth.get('c'), 2)
})

test('cycles are found once each, and a 100,000-deep chain needs no recursion', () => {
  const cyclic = [
    { key: 'a', parent: 'c' },
    { key: 'b', parent: 'a' },
    { key: 'c', parent: 'b' },
    { key: 'd', parent: 'a' },
  ]
  const { cycles } = followParents(cyclic, (i) => i.parent)
  assert.equal(cycles.length, 1)
  assert.deepEqual([...(cycles[0] ?? [])].sort(), ['a', 'b', 'c'])
  const chain = Array.from({ length: 100_000 }, (_, i) => ({
    key: `t${i}`,
    parent: i === 0 ? null : `t${i - 1}`,
  })).reverse()
  const ordered = parentsFirst(chain, (i) => i.parent)
  assert.equal(ordered[0]?.key, 't0')
  assert.equal(ordered.at(-1)?.key, 't99999')
})
