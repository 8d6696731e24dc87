import assert from 'node:assert/strict'
import { test } from 'node:test'
import { CursorCodec } from './cursor.ts'

const codec = new CursorCodec(Buffer.alloc(32, 1))

test('a cursor round-trips its position under the same binding', () => {
  const cursor = codec.encode(['2026-11-22T10:00:00.000Z', 'prj_abc', 3], 'key_1|/v1/projects|[]')
  assert.deepEqual(codec.decode(cursor, 'key_1|/v1/projects|[]'), [
    '2026-11-22T10:00:00.000Z',
    'prj_abc',
    3,
  ])
})

test('a cursor is refused under another binding (token, route or filters)', () => {
  const cursor = codec.encode(['x'], 'key_1|/v1/projects|[]')
  assert.equal(codec.decode(cursor, 'key_2|/v1/projects|[]'), null)
  assert.equal(codec.decode(cursor, 'key_1|/v1/tasks|[]'), null)
})

test('forged, edited, foreign and malformed cursors are refused', () => {
  const cursor = codec.encode(['x'], 'b')
  const [payload, signature] = cursor.split('.') as [string, string]
  const edited = Buffer.from(
    JSON.stringify({ p: ['y'], b: JSON.parse(Buffer.from(payload, 'base64url').toString()).b }),
  ).toString('base64url')
  const other = new CursorCodec(Buffer.alloc(32, 2))
  for (const bad of [
    `${edited}.${signature}`,
    other.encode(['x'], 'b'),
    '',
    '.',
    'abc',
    `${cursor}.x`,
    `${payload}.`,
    'x'.repeat(5000),
  ]) {
    assert.equal(codec.decode(bad, 'b'), null, bad.slice(0, 40))
  }
})
