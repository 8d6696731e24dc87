import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fits, packItems } from './tool-result.ts'

test('packItems answers the rendering it found to fit, even when a rendering differs each time', () => {
  // Each rendering is a little longer than the last, as one with a freshly sealed cursor may be.
  let renderings = 0
  const items = Array.from({ length: 40 }, (_, i) => `item ${i} with a few words`)
  const answer = packItems(items, 400, (shown) => {
    renderings++
    const markdown = [...shown, 'padding '.repeat(renderings * 20)].join('\n')
    return { markdown, structured: { shown: shown.length } }
  })
  assert.ok(fits(answer, 400), answer.markdown)
  assert.ok(answer.markdown.startsWith('item 0'))
})
