import assert from 'node:assert/strict'
import { test } from 'node:test'
import { readCommentSubject } from './comment-subject.ts'

const read = (question: string) => readCommentSubject(question.split(' '))?.words.join(' ') ?? null

test('the title of what a question asks the comments on', () => {
  assert.equal(read('any discussion on the type scale task'), 'type scale')
  assert.equal(
    read('what did vera comment on the onboarding research notes'),
    'onboarding research notes',
  )
  assert.equal(read("what's been said in comments lately on the rebrand"), 'rebrand')
  assert.equal(read('comments on my push reminder bug'), 'push reminder')
  assert.equal(readCommentSubject('comments on the open project'.split(' '))?.kind, 'project')
  assert.equal(readCommentSubject('any discussion on the brief'.split(' '))?.kind, null)
})

test('no subject without "on" after a word for comments, or with nothing after it', () => {
  assert.equal(read('comments about staging'), null)
  assert.equal(read('what is blocked on checkout'), null)
  assert.equal(read('who is working on search'), null)
  assert.equal(read('comments on the task'), null)
})
