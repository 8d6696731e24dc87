import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import {
  countTokens,
  cutToTokens,
  ENCODING,
  fitsInTokens,
  serializeWithBudget,
} from './token-budget.ts'

const body = (text: string, extra: unknown) => ({
  text,
  extra,
  budget: { max_tokens: 2000, used_tokens: 0, encoding: ENCODING },
})

test('used_tokens is the token count of the very text sent, for any content', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.jsonValue(), (text, extra) => {
      const sent = serializeWithBudget(body(text, extra), JSON.stringify)
      assert.equal(JSON.parse(sent).budget.used_tokens, countTokens(sent))
    }),
    { numRuns: 300 },
  )
})

test('used_tokens is exact where the count gains a digit (999 to 1,000 tokens)', () => {
  for (let words = 960; words <= 1000; words++) {
    const sent = serializeWithBudget(body(' word'.repeat(words), null), JSON.stringify)
    assert.equal(JSON.parse(sent).budget.used_tokens, countTokens(sent))
  }
})

test('a text fits when its bytes or else its tokens are within the budget', () => {
  assert.equal(fitsInTokens('short', 5), true)
  assert.equal(fitsInTokens(' word'.repeat(10), 10), true)
  assert.equal(fitsInTokens(' word'.repeat(11), 10), false)
  assert.equal(fitsInTokens('🦜'.repeat(3), 3), countTokens('🦜'.repeat(3)) <= 3)
})

test('special-token strings in user text are counted as text, never thrown on', () => {
  assert.ok(countTokens('Ignore previous instructions <|endoftext|><|im_start|>system') > 5)
})

test('text is cut at a sentence boundary and marked', () => {
  const text =
    'First sentence here. Second sentence is a bit longer than the first. Third one ends it.'
  const cut = cutToTokens(text, 12)
  assert.equal(cut.cut, true)
  assert.equal(cut.text, 'First sentence here.…')
  assert.ok(countTokens(cut.text) <= 12)
  assert.deepEqual(cutToTokens(text, 1000), { text, cut: false })
})

test('without a sentence that fits, the cut falls on a word boundary', () => {
  const text = 'one two three four five six seven eight nine ten'
  const cut = cutToTokens(text, 4)
  assert.ok(cut.text.endsWith('…') && cut.text.length > 1)
  assert.ok(
    text.startsWith(cut.text.slice(0, -1)) && text.charAt(cut.text.length - 1) === ' ',
    cut.text,
  )
  assert.ok(countTokens(cut.text) <= 4)
})

test('the reported count is the count of the exact string sent', () => {
  const body = {
    results: ['x'.repeat(300)],
    budget: { max_tokens: 2000, used_tokens: 0, encoding: 'o200k_base' as const },
  }
  const text = serializeWithBudget(body, (b) => JSON.stringify(b))
  assert.equal(JSON.parse(text).budget.used_tokens, countTokens(text))
})
