import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SecretBox } from './secret-box.ts'

const box = new SecretBox(Buffer.alloc(32, 7))

test('a sealed value opens to the same text and does not contain it', () => {
  const sealed = box.seal('{"token":"wg_key_secret"}', 'ctx')
  assert.ok(!sealed.includes('wg_key'))
  assert.equal(box.open(sealed, 'ctx'), '{"token":"wg_key_secret"}')
  assert.notEqual(box.seal('same', 'ctx'), box.seal('same', 'ctx'))
})

test('a value sealed for another context, altered, or under another secret does not open', () => {
  const sealed = box.seal('hello', 'a')
  assert.throws(() => box.open(sealed, 'b'))
  const parts = sealed.split('.')
  parts[2] = Buffer.from('jello').toString('base64url')
  assert.throws(() => box.open(parts.join('.'), 'a'))
  assert.throws(() => new SecretBox(Buffer.alloc(32, 8)).open(sealed, 'a'))
  assert.throws(() => box.open('garbage', 'a'))
})
