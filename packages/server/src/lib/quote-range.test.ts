import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { quoteRange } from './quote-range.ts'

const sliceCodePoints = (text: string, start: number, end: number) =>
  Array.from(text).slice(start, end).join('')

test('a quote is found with its white space as written', () => {
  const text = 'Intro.\n\nCustomers  raised\tthis in three tickets.'
  const range = quoteRange(text, 'Customers raised this in three…')
  assert.deepEqual(range, { start: 8, end: 39 })
  assert.equal(sliceCodePoints(text, 8, 39), 'Customers  raised\tthis in three')
})

test('positions count code points, so an emoji before the quote counts once', () => {
  assert.deepEqual(quoteRange('🚀 ship it', 'ship it'), { start: 2, end: 9 })
})

test('a quote the text does not hold, or an empty one, has no range', () => {
  assert.equal(quoteRange('one two', 'three'), null)
  assert.equal(quoteRange('one two', ' … '), null)
})

test('any stretch of words of a text, shown on one line, is found where it was', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom('a', 'b', 'é', '🚀', ' ', '\n', '\t', '  '), { maxLength: 40 }),
      fc.nat(),
      fc.nat(),
      (parts, i, j) => {
        const text = parts.join('')
        const chars = Array.from(text)
        const [from, to] = [i % (chars.length + 1), j % (chars.length + 1)].sort((a, b) => a - b)
        const quote = chars.slice(from, to).join('').replace(/\s+/g, ' ').trim()
        const range = quoteRange(text, quote)
        if (quote === '') return assert.equal(range, null)
        assert.ok(range)
        const found = sliceCodePoints(text, range.start, range.end)
        assert.equal(found.replace(/\s+/g, ' '), quote)
      },
    ),
  )
})
