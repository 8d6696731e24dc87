import assert from 'node:assert/strict'
import { test } from 'node:test'
import { heardWord } from './heard-words.ts'

test('"do" is read as "due" only where a due date is meant', () => {
  assert.equal(heardWord('do', 'no', 'date'), 'due')
  assert.equal(heardWord('do', 'is', 'between'), 'due')
  assert.equal(heardWord('do', 'stuff', 'by'), 'due')
  // A verb, and the status "to do", stay themselves.
  assert.equal(heardWord('do', 'what', 'we'), 'do')
  assert.equal(heardWord('do', 'to', 'today'), 'do')
  assert.equal(heardWord('done', 'is', 'date'), 'done')
})
