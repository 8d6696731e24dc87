import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isOverdue, utcDay } from './overdue.ts'

test('overdue: due before today and not done; due today, done or undated never is', () => {
  const today = utcDay(new Date('2026-12-02T23:30:00-05:00'))
  assert.equal(today, '2026-12-03', 'the day is the UTC day')
  assert.equal(isOverdue({ status: 'todo', due: '2026-12-02' }, today), true)
  assert.equal(isOverdue({ status: 'blocked', due: '2026-01-01' }, today), true)
  assert.equal(isOverdue({ status: 'done', due: '2026-12-02' }, today), false)
  assert.equal(isOverdue({ status: 'todo', due: '2026-12-03' }, today), false)
  assert.equal(isOverdue({ status: 'todo', due: null }, today), false)
})
