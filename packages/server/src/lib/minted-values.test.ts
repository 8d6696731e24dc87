import assert from 'node:assert/strict'
import { test } from 'node:test'
import { newSecret, SECRET_PREFIX } from '../access/secrets.ts'
import { newId } from './ids.ts'
import { recordingMinted } from './minted-values.ts'

test('a recording reports the ids and secrets minted inside it, across awaits, and no others', async () => {
  const outside = newId('task')
  let neighbour = ''
  const { value, minted } = await recordingMinted(async (sofar) => {
    const task = newId('task')
    // Work started and awaited inside the recording belongs to it.
    await Promise.all([
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 1))
        neighbour = newId('comment')
      })(),
    ])
    assert.ok(sofar.has(task), 'the set grows while the recording runs')
    await new Promise((resolve) => setTimeout(resolve, 1))
    const secret = newSecret(SECRET_PREFIX.apiKey)
    return [task, secret]
  })
  assert.deepEqual([...minted].sort(), [...value, neighbour].sort())
  assert.ok(!minted.has(outside))
  const later = newId('task')
  assert.ok(!minted.has(later), 'nothing is reported after the recording ends')
})

test('two recordings running at once see only their own ids', async () => {
  const run = () =>
    recordingMinted(async () => {
      const ids = []
      for (let i = 0; i < 5; i++) {
        ids.push(newId('activity'))
        await new Promise((resolve) => setTimeout(resolve, 1))
      }
      return ids
    })
  const [a, b] = await Promise.all([run(), run()])
  assert.deepEqual([...a.minted], a.value)
  assert.deepEqual([...b.minted], b.value)
})
