import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isStorableText, unstorableText } from './storable-text.ts'

test('NUL and unpaired surrogates are refused; every other character is text', () => {
  assert.equal(isStorableText('a\u0000'), false)
  assert.equal(isStorableText('\ud800'), false)
  assert.equal(isStorableText('x\udc00y'), false)
  assert.equal(isStorableText('\udc00\ud800'), false) // the wrong order is no pair
  assert.equal(isStorableText('😀 \ufffd \u0001 \uffff'), true)
})

test('faults are found at any depth, in keys too, located by JSON Pointer in document order', () => {
  const value = { a: [1, 'ok', { 'b/c~': 'x\u0000' }], 'k\ud800': 1, z: null, y: ['\ud800'] }
  assert.deepEqual(
    unstorableText(value).map((fault) => fault.path),
    ['/a/2/b~1c~0', '/k\ud800', '/y/0'],
  )
  assert.match(unstorableText(value)[1]?.message ?? '', /^is a field name that must not/)
  assert.deepEqual(unstorableText('\u0000'), [
    { path: '', message: 'must not contain a NUL character (U+0000)' },
  ])
  assert.deepEqual(unstorableText({ a: 1, b: [true, null], c: 'fine' }), [])
})

test('a value nested far deeper than the call stack is walked, and the list is capped', () => {
  const deep = JSON.parse(`${'['.repeat(200_000)}"\\u0000"${']'.repeat(200_000)}`)
  const [fault] = unstorableText(deep)
  assert.equal(fault?.path.length, 200_000 * 2)
  assert.equal(unstorableText(Array(100).fill('\u0000'), 5).length, 5)
})
