import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ChangeSignal } from './change-signal.ts'

const never = new AbortController().signal

test('a pulse wakes the waiters of its workspace only', async () => {
  const signal = new ChangeSignal()
  const mine = signal.next('ws_a', 60_000, never, signal.pulses('ws_a'))
  const theirs = signal.next('ws_b', 50, never, signal.pulses('ws_b'))
  assert.equal(signal.waiting('ws_a'), 1)
  signal.notify('ws_a')
  assert.equal(await mine, 'changed')
  assert.equal(await theirs, 'timeout')
  assert.deepEqual(signal.waitedOn(), [])
})

test('a pulse after `since` ends the wait at once, so one raised during a read is not missed', async () => {
  const signal = new ChangeSignal()
  const since = signal.pulses('ws_a')
  signal.notify('ws_a')
  assert.equal(await signal.next('ws_a', 60_000, never, since), 'changed')
  assert.equal(signal.waiting('ws_a'), 0)
})

test('notifyAll wakes every workspace and counts as a pulse of each', async () => {
  const signal = new ChangeSignal()
  const since = signal.pulses('ws_b')
  const waiting = signal.next('ws_a', 60_000, never, signal.pulses('ws_a'))
  signal.notifyAll()
  assert.equal(await waiting, 'changed')
  assert.notEqual(signal.pulses('ws_b'), since)
})

test('an aborted wait ends as aborted and leaves nothing behind', async () => {
  const signal = new ChangeSignal()
  const gone = new AbortController()
  const waiting = signal.next('ws_a', 60_000, gone.signal, signal.pulses('ws_a'))
  gone.abort()
  assert.equal(await waiting, 'aborted')
  assert.deepEqual(signal.waitedOn(), [])
})
