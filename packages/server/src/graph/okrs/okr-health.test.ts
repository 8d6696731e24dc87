import assert from 'node:assert/strict'
import { test } from 'node:test'
import { currentSessions, okrHealth, periodOf } from './okr-health.ts'

const day = (iso: string) => new Date(`${iso}T00:00:00Z`)

test('a session names its period: a quarter, a half or a year; anything else none', () => {
  assert.deepEqual(periodOf('2026-Q4'), { start: day('2026-10-01'), end: day('2027-01-01') })
  assert.deepEqual(periodOf('2026-q1'), { start: day('2026-01-01'), end: day('2026-04-01') })
  assert.deepEqual(periodOf('2027-H2'), { start: day('2027-07-01'), end: day('2028-01-01') })
  assert.deepEqual(periodOf('2026'), { start: day('2026-01-01'), end: day('2027-01-01') })
  for (const other of ['2026-Q5', '2026-H3', 'Q4', 'Autumn push', '26-Q1', ''])
    assert.equal(periodOf(other), undefined, other)
})

test('health measures progress against the share of the period elapsed', () => {
  // 2026-11-16 is 46 of the quarter's 92 days: half of it has passed.
  const mid = day('2026-11-16')
  const verdict = (progress: number, confidence: number | null = null) =>
    okrHealth(progress, confidence, '2026-Q4', mid)?.verdict
  assert.equal(okrHealth(0.5, null, '2026-Q4', mid)?.expected_progress, 0.5)
  assert.equal(verdict(1), 'achieved')
  assert.equal(verdict(0.45), 'on_track')
  assert.equal(verdict(0.4), 'on_track')
  assert.equal(verdict(0.3), 'at_risk')
  assert.equal(verdict(0.25), 'at_risk')
  assert.equal(verdict(0.2), 'off_track')
  assert.equal(verdict(0.45, 0.3), 'at_risk', 'its owner doubts it')
  assert.equal(verdict(0.2, 0.9), 'off_track', 'confidence does not rescue the numbers')
})

test('before its period nothing is expected; after it, everything is', () => {
  assert.deepEqual(okrHealth(0, null, '2027-Q1', day('2026-11-16')), {
    verdict: 'on_track',
    expected_progress: 0,
  })
  assert.deepEqual(okrHealth(0.8, null, '2026-Q3', day('2026-11-16')), {
    verdict: 'at_risk',
    expected_progress: 1,
  })
  assert.equal(okrHealth(0.5, null, 'Autumn push', day('2026-11-16')), null)
})

test('the current sessions are the year, half and quarter of the day, each a period that holds it', () => {
  assert.deepEqual(currentSessions(day('2026-11-16')), ['2026', '2026-H2', '2026-Q4'])
  assert.deepEqual(currentSessions(day('2027-01-01')), ['2027', '2027-H1', '2027-Q1'])
  assert.deepEqual(currentSessions(day('2026-06-30')), ['2026', '2026-H1', '2026-Q2'])
  for (const iso of ['2026-01-01', '2026-03-31', '2026-07-01', '2026-12-31']) {
    for (const session of currentSessions(day(iso))) {
      const period = periodOf(session)
      assert.ok(period && period.start <= day(iso) && day(iso) < period.end, `${session} ${iso}`)
    }
  }
})
