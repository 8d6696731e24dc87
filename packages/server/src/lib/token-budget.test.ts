import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { countTokens, ENCODING, fitsInTokens, serializeWithBudget } from './token-budget.ts'

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
