import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isStorableDay, isStorableTime } from './storable-dates.ts'

test('days: real calendar days of years 0001 to 9999', () => {
  for (const day of ['0001-01-01', '2024-02-29', '2026-11-29', '9999-12-31'])
    assert.ok(isStorableDay(day), day)
  for (const day of [
    '0000-01-01',
    '0000-12-31',
    '2026-02-29',
    '2026-13-01',
    '2026-1-01',
    '10000-01-01',
    '+002026-01-01',
    ' 2026-01-01',
  ])
    assert.ok(!isStorableDay(day), day)
})

test('times: RFC 3339 of such a day, whose instant is within them too', () => {
  for (const time of [
    '0001-01-01T00:00:00Z',
    '2026-11-29T10:00:00.123456+05:30',
    '2026-11-29t10:00:00z',
    '9999-12-31T23:59:59.999Z',
    '9999-12-31T23:59:59+01:00',
  ])
    assert.ok(isStorableTime(time), time)
  for (const time of [
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:00:00+00:01',
    '9999-12-31T23:59:59-00:01',
    '2026-02-30T00:00:00Z',
    '2026-11-29T24:00:00Z',
    '2026-11-29T23:59:60Z',
    '2026-11-29T10:00:00',
    '2026-11-29T10:00:00+24:00',
    '2026-11-29T10:00:00+16:00',
    '2026-11-29T10:00:00-23:59',
    '2026-11-29',
  ])
    assert.ok(!isStorableTime(time), time)
})
