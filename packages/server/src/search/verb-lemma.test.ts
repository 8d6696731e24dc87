import assert from 'node:assert/strict'
import { test } from 'node:test'
import { baseVerb, readVerb } from './verb-lemma.ts'

test('gives the base form of regular verbs in every inflection', () => {
  const forms: Record<string, string[]> = {
    finish: ['finish', 'finishes', 'finished', 'finishing'],
    close: ['close', 'closes', 'closed', 'closing'],
    complete: ['completes', 'completed', 'completing'],
    ship: ['ship', 'ships', 'shipped', 'shipping'],
    wrap: ['wraps', 'wrapped', 'wrapping'],
    deliver: ['delivers', 'delivered', 'delivering'],
    comment: ['comments', 'commented', 'commenting'],
    reply: ['replies', 'replied', 'replying'],
    mention: ['mentions', 'mentioned', 'mentioning'],
    post: ['posts', 'posted', 'posting'],
    create: ['creates', 'created', 'creating'],
    open: ['opens', 'opened', 'opening'],
    work: ['works', 'worked', 'working'],
    own: ['owns', 'owned', 'owning'],
    focus: ['focused', 'focusing'],
  }
  for (const [base, words] of Object.entries(forms))
    for (const word of words) assert.equal(baseVerb(word), base, word)
})

test('gives the base form of irregular verbs', () => {
  assert.equal(baseVerb('said'), 'say')
  assert.equal(baseVerb('says'), 'say')
  assert.equal(baseVerb('saying'), 'say')
  assert.equal(baseVerb('wrote'), 'write')
  assert.equal(baseVerb('written'), 'write')
  assert.equal(baseVerb('writes'), 'write')
  assert.equal(baseVerb('writing'), 'write')
  assert.equal(baseVerb('made'), 'make')
  assert.equal(baseVerb('making'), 'make')
  assert.equal(baseVerb('got'), 'get')
  assert.equal(baseVerb('did'), 'do')
  assert.equal(baseVerb('doing'), 'do')
  assert.equal(baseVerb('has'), 'have')
})

test('says which form a word is', () => {
  assert.deepEqual(readVerb('closed'), { base: 'close', form: 'past' })
  assert.deepEqual(readVerb('written'), { base: 'write', form: 'past' })
  assert.deepEqual(readVerb('finishes'), { base: 'finish', form: 'present' })
  assert.deepEqual(readVerb('shipping'), { base: 'ship', form: 'gerund' })
  assert.deepEqual(readVerb('close'), { base: 'close', form: 'base' })
})

test('leaves names and other words as they are', () => {
  for (const word of ['priya', 'sam', 'ada', 'kemi', 'hugo', 'rollout', 'today', 'busy', 'up'])
    assert.deepEqual(readVerb(word), { base: word, form: 'base' }, word)
  // Words compromise does not read (not lower-case English letters) are their own base.
  for (const word of ['inès', "that's", 'q3', 'Said', ''])
    assert.deepEqual(readVerb(word), { base: word, form: 'base' }, word)
})

test('answers the same from its cache', () => {
  const first = readVerb('delivering')
  assert.equal(readVerb('delivering'), first)
  for (let i = 0; i < 1_500; i++) readVerb(`word${i}`)
  assert.deepEqual(readVerb('delivering'), first)
})
