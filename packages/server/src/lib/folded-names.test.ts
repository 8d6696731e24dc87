import assert from 'node:assert/strict'
import { test } from 'node:test'
import { foldName } from './folded-names.ts'

test('names fold to lower case without accents', () => {
  assert.equal(foldName('Inès Dubois'), 'ines dubois')
  assert.equal(foldName('Rosa JIMÉNEZ'), 'rosa jimenez')
  assert.equal(foldName('Łukasz Øster'), 'lukasz oster')
})
