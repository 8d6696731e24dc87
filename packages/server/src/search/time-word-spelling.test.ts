import assert from 'node:assert/strict'
import { test } from 'node:test'
import { timeWordSpelling } from './time-word-spelling.ts'

test('a misspelled word of time reads as the word meant', () => {
  const meant: Record<string, string> = {
    tomorow: 'tomorrow',
    tommorow: 'tomorrow',
    yesturday: 'yesterday',
    wensday: 'wednesday',
    thrusday: 'thursday',
    febuary: 'february',
    todya: 'today',
    firday: 'friday',
  }
  for (const [typed, word] of Object.entries(meant)) assert.equal(timeWordSpelling(typed), word)
})

test('words to find stay as they are', () => {
  for (const word of [
    'monkey',
    'match',
    'apron',
    'friends',
    'fridge',
    'sundae',
    'octopus',
    'today',
    'may',
  ])
    assert.equal(timeWordSpelling(word), word)
})
