import assert from 'node:assert/strict'
import { test } from 'node:test'
import { packPosition, unpackPosition } from './cursor-position.ts'
import { newId } from './ids.ts'

test('times and ids pack to a fraction of their text, and come back as the same strings', () => {
  const position = ['2026-11-22T10:00:00.000Z', newId('task')]
  const packed = packPosition(position)
  assert.equal(packed.length, 1 + 6 + 1 + 1 + 3 + 16)
  assert.deepEqual(unpackPosition(packed), position)
  assert.equal(packPosition([1]).length, packPosition([2 ** 40]).length)
})

test('bytes that packPosition did not make are no position', () => {
  const packed = packPosition(['2026-11-22T10:00:00.000Z', newId('task'), 'Ada', 0.5, null])
  for (let length = 1; length < packed.length; length++) {
    const cut = unpackPosition(packed.subarray(0, length))
    assert.ok(cut === null || cut.length < 5, `cut at ${length}`)
  }
  for (const bytes of [Buffer.alloc(0), Buffer.of(9), Buffer.of(4, 0xff), Buffer.of(4, 5, 65)])
    assert.equal(unpackPosition(bytes), null, bytes.toString('hex'))
})
