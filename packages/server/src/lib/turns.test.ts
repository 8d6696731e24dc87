import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Turns } from './turns.ts'

const never = new AbortController().signal

test('at most `size` run at once, the rest in the order they asked', async () => {
  const turns = new Turns(2)
  const order: number[] = []
  let running = 0
  let most = 0
  await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      turns.run(never, async () => {
        running++
        most = Math.max(most, running)
        order.push(i)
        await new Promise((resolve) => setTimeout(resolve, 5))
        running--
      }),
    ),
  )
  assert.equal(most, 2)
  assert.deepEqual(order, [0, 1, 2, 3, 4, 5])
})

test('a waiter whose signal aborts leaves the queue without running, and its place passes on', async () => {
  const turns = new Turns(1)
  let release = () => {}
  const holder = turns.run(never, () => new Promise<void>((resolve) => (release = resolve)))
  const leaving = new AbortController()
  const left = turns.run(leaving.signal, async () => 'ran')
  const next = turns.run(never, async () => 'next ran')
  leaving.abort()
  assert.equal(await left, undefined)
  release()
  await holder
  assert.equal(await next, 'next ran')
  // The turn is free again once everything is done.
  assert.equal(await turns.run(never, async () => 'free'), 'free')
})

test('a turn is given back when the work throws', async () => {
  const turns = new Turns(1)
  await assert.rejects(
    turns.run(never, async () => {
      throw new Error('failed')
    }),
  )
  assert.equal(await turns.run(never, async () => 'after'), 'after')
})
