import assert from 'node:assert/strict'
import { test } from 'node:test'
import { changeText } from './change-text.ts'

test('a change reads as its fields, from and to; prose and key results only as edited', () => {
  const keyResults = [{ id: 'kr_1', title: 'Signups', start: 0, target: 100 }]
  assert.equal(
    changeText({
      status: { from: 'open', to: 'closed' },
      owner_id: { from: 'usr_a', to: 'usr_b', from_name: 'Ada', to_name: 'Bob' },
      description: { from: 'Old text', to: 'New text' },
      key_results: { from: keyResults, to: [...keyResults, { ...keyResults[0], id: 'kr_2' }] },
      progress: { from: 0.5, to: 0.25 },
    }),
    'status open → closed, owner Ada → Bob, description edited, key_results edited, progress 0.5 → 0.25',
  )
  assert.equal(changeText({}), null)
})
