import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ListenSlots } from './listen-slots.ts'

const limits = { perCredential: 2, perActor: 3, perWorkspace: 4, perProcess: 5 }
const holder = (credential: string, actor: string, workspace: string) => ({
  credential,
  actor,
  workspace,
})

test('each limit holds on its own, and a release frees its slot', () => {
  const slots = new ListenSlots(limits)
  assert.ok(slots.take(holder('k1', 'ada', 'w1')))
  const release = slots.take(holder('k1', 'ada', 'w1'))
  assert.ok(release)
  assert.equal(slots.take(holder('k1', 'ada', 'w1')), null, 'per credential')
  assert.ok(slots.take(holder('k2', 'ada', 'w1')))
  assert.equal(slots.take(holder('k3', 'ada', 'w1')), null, 'per person, whatever the key')
  assert.ok(slots.take(holder('k4', 'bea', 'w1')))
  assert.equal(slots.take(holder('k5', 'cy', 'w1')), null, 'per workspace')
  assert.ok(slots.take(holder('k6', 'dan', 'w2')))
  assert.equal(slots.take(holder('k7', 'eve', 'w3')), null, 'per process')
  release?.()
  assert.ok(slots.take(holder('k7', 'eve', 'w3')), 'a released slot is free again')
  assert.equal(slots.size, 5)
})

test('the same person id in two workspaces is two people', () => {
  const slots = new ListenSlots({ ...limits, perProcess: 10 })
  for (let i = 0; i < 3; i++) assert.ok(slots.take(holder(`a${i}`, 'p', 'w1')))
  assert.ok(slots.take(holder('b0', 'p', 'w2')))
})
