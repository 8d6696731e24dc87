import assert from 'node:assert/strict'
import { test } from 'node:test'
import { canonicalJson } from './canonical-json.ts'

test('key order and whitespace do not change the canonical form', () => {
  const a = JSON.parse('{"b": 1, "a": {"y": [1, {"d": 2, "c": 3}], "x": null}}')
  const b = JSON.parse('{"a":{"x":null,"y":[1,{"c":3,"d":2}]},"b":1}')
  assert.equal(canonicalJson(a), canonicalJson(b))
  assert.equal(canonicalJson(a), '{"a":{"x":null,"y":[1,{"c":3,"d":2}]},"b":1}')
})

test('values that differ give different forms', () => {
  assert.notEqual(canonicalJson({ a: 1 }), canonicalJson({ a: '1' }))
  assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]))
  assert.notEqual(canonicalJson({ a: null }), canonicalJson({}))
  assert.equal(canonicalJson(undefined), 'null')
})
