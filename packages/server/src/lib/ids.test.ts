import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ID_PREFIX, idKind, idPattern, isIdOf, newId } from './ids.ts'

test('ids are the prefix and 26 Crockford base32 characters', () => {
  for (const kind of Object.keys(ID_PREFIX) as (keyof typeof ID_PREFIX)[]) {
    const id = newId(kind)
    assert.match(id, new RegExp(`^${ID_PREFIX[kind]}_[0-9abcdefghjkmnpqrstvwxyz]{26}$`))
    assert.equal(idKind(id), kind)
    assert.ok(isIdOf(kind, id))
    assert.match(id, new RegExp(idPattern(kind)))
  }
})

test('ids are random: no collisions, no order, every position varies', () => {
  const ids = Array.from({ length: 20_000 }, () => newId('task'))
  assert.equal(new Set(ids).size, ids.length)
  const sorted = [...ids].sort()
  assert.notDeepEqual(sorted, ids, 'ids must not come out in creation order')
  // 128 random bits: the first body character carries the top 3 bits, the rest 5 bits each.
  for (let position = 5; position < 30; position++) {
    const seen = new Set(ids.map((id) => id[position]))
    assert.ok(seen.size >= 8, `position ${position} varies`)
  }
})

test('idKind refuses malformed and unknown ids', () => {
  for (const value of [
    '',
    'tsk_',
    'tsk_123',
    'xyz_0123456789abcdefghjkmnpq',
    'TSK_0123456789abcdefghjkmnpq',
    'tsk_0123456789abcdefghjkmnpi',
    `${newId('task')}x`,
  ]) {
    assert.equal(idKind(value), null, value)
  }
})
