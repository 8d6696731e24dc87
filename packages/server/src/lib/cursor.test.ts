import assert from 'node:assert/strict'
import { createHash, createHmac } from 'node:crypto'
import { test } from 'node:test'
import { CursorCodec } from './cursor.ts'
import { newId } from './ids.ts'

const secret = Buffer.alloc(32, 1)
const codec = new CursorCodec(secret)
const binding = 'key_1|/v1/projects|[]'

test('a cursor round-trips every kind of position value under the same binding', () => {
  for (const position of [
    ['2026-11-22T10:00:00.000Z', newId('project')],
    ['1970-01-01T00:00:00.000Z', newId('task')],
    [0.8125, '2026-11-22T10:00:00.123Z', newId('comment')],
    [12_345_678_901, -1.5, 0, null],
    ['Ada Lovelace', newId('person')],
    ['', 'Zoë «quoted» 😀', 'x'.repeat(300)],
    // Strings that look like a time or an id but would not come back the same are kept as text.
    ['2026-11-22T10:00:00Z', '2026-02-30T10:00:00.000Z', 'tsk_zzzzzzzzzzzzzzzzzzzzzzzzzz'],
    ['act_bulk12', 'xyz_0000000000000000000000000a', 'TSK_0000000000000000000000000A'],
  ]) {
    assert.deepEqual(codec.decode(codec.encode(position, binding), binding), position)
  }
})

test('a cursor shows nothing: random each time, its length independent of the numbers in it', () => {
  const id = newId('task')
  const one = codec.encode(['2026-11-22T10:00:00.000Z', id], binding)
  const again = codec.encode(['2026-11-22T10:00:00.000Z', id], binding)
  assert.notEqual(one, again)
  assert.match(one, /^[A-Za-z0-9_-]+$/)
  for (const part of [one, Buffer.from(one, 'base64url').toString('latin1')]) {
    assert.ok(!part.includes(id) && !part.includes('2026'), part)
  }
  const lengths = new Set([0, 7, 10, 12_010, 2 ** 40].map((n) => codec.encode([n], binding).length))
  assert.equal(lengths.size, 1, 'a feed position of any size makes a cursor of one length')
  assert.ok(one.length <= 80, `a list cursor is short (${one.length} characters)`)
})

test('a cursor is refused under another binding (token, route or filters) or another secret', () => {
  const cursor = codec.encode(['x'], binding)
  assert.equal(codec.decode(cursor, 'key_2|/v1/projects|[]'), null)
  assert.equal(codec.decode(cursor, 'key_1|/v1/tasks|[]'), null)
  assert.equal(new CursorCodec(Buffer.alloc(32, 2)).decode(cursor, binding), null)
  assert.deepEqual(new CursorCodec(Buffer.alloc(32, 1)).decode(cursor, binding), ['x'])
})

test('edited, cut, extended and made-up cursors are refused', () => {
  const cursor = codec.encode(['2026-11-22T10:00:00.000Z', newId('task')], binding)
  const bytes = Buffer.from(cursor, 'base64url')
  for (let at = 0; at < bytes.length; at++) {
    const edited = Buffer.from(bytes)
    edited.writeUInt8(edited.readUInt8(at) ^ 1, at)
    assert.equal(codec.decode(edited.toString('base64url'), binding), null, `byte ${at}`)
  }
  const last = cursor.at(-1) === 'A' ? 'B' : 'A'
  for (const bad of [
    cursor.slice(0, -1),
    `${cursor.slice(0, -1)}${last}`,
    cursor.slice(0, 20),
    `${cursor}A`,
    `${cursor}AAAA`,
    `${cursor}=`,
    ` ${cursor}`,
    '',
    '.',
    'abc',
    'A'.repeat(40),
    `${cursor}.x`,
    'x'.repeat(5000),
  ]) {
    assert.equal(codec.decode(bad, binding), null, bad.slice(0, 40))
  }
})

test('cursors of the earlier signed format are still read, and checked as before', () => {
  const sign = (position: unknown[], boundTo: string, key = secret) => {
    const b = createHash('sha256').update(boundTo).digest('base64url').slice(0, 16)
    const payload = Buffer.from(JSON.stringify({ p: position, b })).toString('base64url')
    const hmacKey = createHmac('sha256', key).update('workgraph cursor v1').digest()
    const signature = createHmac('sha256', hmacKey).update(payload).digest('base64url')
    return `${payload}.${signature.slice(0, 22)}`
  }
  assert.deepEqual(codec.decode(sign([42], binding), binding), [42])
  assert.equal(codec.decode(sign([42], binding), 'key_2|/v1/projects|[]'), null)
  assert.equal(codec.decode(sign([42], binding, Buffer.alloc(32, 2)), binding), null)
  const [payload, signature] = sign([42], binding).split('.') as [string, string]
  const edited = Buffer.from(
    JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), p: [43] }),
  ).toString('base64url')
  assert.equal(codec.decode(`${edited}.${signature}`, binding), null)
})
