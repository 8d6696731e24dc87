import assert from 'node:assert/strict'
import { test } from 'node:test'
import { safeReturnTo, signInPath } from './return-to.ts'

test('a local path is kept, with every character beyond ASCII percent-encoded', () => {
  assert.equal(safeReturnTo('/wsp_1/task/tsk_2?x=1#c'), '/wsp_1/task/tsk_2?x=1#c')
  assert.equal(safeReturnTo('/ā'), '/%C4%81')
  assert.equal(safeReturnTo('/é?q=€#€'), '/%C3%A9?q=%E2%82%AC#%E2%82%AC')
  assert.equal(safeReturnTo('/a/../b'), '/b')
})

test('anything that could leave the origin, loop or not fit a header is /', () => {
  for (const value of [
    undefined,
    '',
    'https://evil.example/',
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    '/a b',
    '/x\u0000',
    'javascript:alert(1)',
    '/sign-in',
    '/sign-in?return_to=/x',
    '/x/../sign-in',
    '/sign-out',
    `/${'a'.repeat(2000)}`,
    `/${'€'.repeat(300)}`,
  ]) {
    assert.equal(safeReturnTo(value), '/', JSON.stringify(value))
  }
})

test('the sign-in path carries a kept target, encoded', () => {
  assert.equal(signInPath('/'), '/sign-in')
  assert.equal(signInPath('/ā'), '/sign-in?return_to=%2F%25C4%2581')
})
