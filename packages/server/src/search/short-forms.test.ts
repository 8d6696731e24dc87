import assert from 'node:assert/strict'
import { test } from 'node:test'
import { longForm } from './short-forms.ts'

test('a short form is read as the word it stands for; a word is left as written', () => {
  assert.equal(longForm('wk'), 'week')
  assert.equal(longForm('fri'), 'friday')
  assert.equal(longForm('b4'), 'before')
  assert.equal(longForm('tmrw'), 'tomorrow')
  assert.equal(longForm('w/o'), 'without')
  assert.equal(longForm('w'), 'with')
  for (const word of ['sat', 'wed', 'sun', 'ppl', 'week', 'checkout'])
    assert.equal(longForm(word), word)
})
