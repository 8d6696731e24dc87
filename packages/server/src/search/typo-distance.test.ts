import assert from 'node:assert/strict'
import { test } from 'node:test'
import { editDistance, editsAllowed } from './typo-distance.ts'

test('counts insertions, deletions, substitutions and swapped neighbours as one edit each', () => {
  assert.equal(editDistance('acessibility', 'accessibility', 2), 1)
  assert.equal(editDistance('chekout', 'checkout', 2), 1)
  assert.equal(editDistance('recieve', 'receive', 2), 1)
  assert.equal(editDistance('roadmpa', 'roadmap', 2), 1)
  assert.equal(editDistance('trvenvenfen', 'torvenvenfen', 2), 1)
  assert.equal(editDistance('budget', 'budget', 2), 0)
  assert.equal(editDistance('onbaording', 'onboarding', 2), 1)
  assert.equal(editDistance('kitten', 'sitting', 5), 3)
})

test('gives up past the limit', () => {
  assert.equal(editDistance('trvenvenfen', 'fenvenfenven', 2), 3)
  assert.equal(editDistance('short', 'muchlongerword', 2), 3)
  assert.equal(editDistance('', 'abc', 2), 3)
  assert.equal(editDistance('', 'ab', 2), 2)
})

test('reads letters, not UTF-16 units', () => {
  assert.equal(editDistance('café', 'cafe', 1), 1)
  assert.equal(editDistance('naïve', 'naive', 1), 1)
})

test('allows one edit up to five letters and two beyond', () => {
  assert.equal(editsAllowed('audit'), 1)
  assert.equal(editsAllowed('roadmap'), 2)
})
