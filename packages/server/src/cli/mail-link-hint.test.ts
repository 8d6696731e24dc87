import assert from 'node:assert/strict'
import { test } from 'node:test'
import { mailLinkHint } from './mail-link-hint.ts'

test('serve warns when emailed links would name this machine only', () => {
  const smtp = 'smtp://mail.example.test:587'
  assert.match(
    mailLinkHint({ smtpUrl: smtp, publicUrl: 'http://127.0.0.1:8080' }).join('\n'),
    /opens only on this machine/,
  )
  assert.equal(mailLinkHint({ smtpUrl: smtp, publicUrl: 'http://localhost:8080' }).length, 3)
  assert.deepEqual(mailLinkHint({ smtpUrl: smtp, publicUrl: 'https://work.example.test' }), [])
  assert.deepEqual(mailLinkHint({ smtpUrl: undefined, publicUrl: 'http://127.0.0.1:8080' }), [])
})
