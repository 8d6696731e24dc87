import assert from 'node:assert/strict'
import { test } from 'node:test'
import { newSecret, SECRET_PREFIX } from '../access/secrets.ts'
import { newId } from '../lib/ids.ts'
import { nullMinted } from './null-minted.ts'

test('minted ids, the urls naming them, secrets and their last4 become null; nothing else', () => {
  const id = newId('task')
  const kept = newId('project')
  const secret = newSecret(SECRET_PREFIX.apiKey)
  const answer = {
    id,
    url: `https://app.example/ws/task/${id}`,
    project_id: kept,
    links: [id, kept],
    token: secret,
    last4: secret.slice(-4),
    title: secret.slice(-4),
    nested: { subject_id: id, count: 3, flag: true, none: null },
  }
  assert.deepEqual(nullMinted(answer, new Set([id, secret])), {
    id: null,
    url: null,
    project_id: kept,
    links: [null, kept],
    token: null,
    last4: null,
    title: secret.slice(-4),
    nested: { subject_id: null, count: 3, flag: true, none: null },
  })
})
