import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DatabaseClock } from './database-clock.ts'

const DB_TIME = Date.parse('2026-11-29T12:00:00.000Z')

test("the clock tells the database's time, carried forward by the monotonic clock alone", async () => {
  let mono = 1_000
  // Each read of the database takes 10 ms of monotonic time, answered halfway.
  const clock = await DatabaseClock.measure({
    databaseTime: async () => {
      mono += 5
      const at = new Date(DB_TIME + mono)
      mono += 5
      return at
    },
    monotonic: () => mono,
  })
  const now = clock.now().getTime()
  assert.equal(now - (DB_TIME + mono), 0)
  mono += 60_000
  assert.equal(clock.now().getTime(), now + 60_000)
  // This machine's wall clock plays no part: a day ahead of it is a day of skew, nothing more.
  assert.equal(clock.skewMs(clock.now().getTime() + 86_400_000), 86_400_000)
})

test('of several samples, the one with the shortest round trip is kept', async () => {
  let mono = 0
  const delays = [400, 20, 200]
  let i = 0
  const clock = await DatabaseClock.measure({
    databaseTime: async () => {
      const delay = delays[i++ % delays.length] as number
      // The database answers at the very start of a slow round trip: a slow sample misleads.
      const at = new Date(DB_TIME + mono)
      mono += delay
      return at
    },
    monotonic: () => mono,
  })
  // The 20 ms sample: read at monotonic 400, anchored at its midpoint 410.
  assert.equal(clock.now().getTime() - (DB_TIME + 400), mono - 410)
})
