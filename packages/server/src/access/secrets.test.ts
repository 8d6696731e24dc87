import assert from 'node:assert/strict'
import { test } from 'node:test'
import { hashSecret, isWellFormedSecret, lastFour, newSecret, SECRET_PREFIX } from './secrets.ts'

test('secrets carry their prefix and a checksum that catches typos', () => {
  const secret = newSecret(SECRET_PREFIX.apiKey)
  assert.match(secret, /^wg_key_[0-9A-Za-z]{38}$/)
  assert.ok(isWellFormedSecret(SECRET_PREFIX.apiKey, secret))
  assert.ok(!isWellFormedSecret(SECRET_PREFIX.workspaceToken, secret))
  const typo = secret.slice(0, 10) + (secret[10] === 'a' ? 'b' : 'a') + secret.slice(11)
  assert.ok(!isWellFormedSecret(SECRET_PREFIX.apiKey, typo))
  assert.ok(!isWellFormedSecret(SECRET_PREFIX.apiKey, `${secret}x`))
})

test('only a hash and the last four characters are derived for storage', () => {
  const secret = newSecret(SECRET_PREFIX.workspaceToken)
  assert.equal(hashSecret(secret).length, 32)
  assert.ok(!hashSecret(secret).toString('latin1').includes(secret))
  assert.equal(lastFour(secret), secret.slice(-4))
})
