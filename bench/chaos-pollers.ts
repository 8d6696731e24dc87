/**
 * A child of `npm run bench:chaos`: holds `--polls` long polls of `GET /v1/changes` open against
 * `--base`, each following the feed with `wait=--wait` from the feed's current end and asking
 * again as soon as it is answered, as an agent following the feed would. Started in a process of
 * its own so that its event loop does not share the bench's. Prints one JSON line on SIGTERM:
 * polls answered, changes received, and answers that were not 200.
 *
 *   node bench/chaos-pollers.ts --base http://127.0.0.1:3000 --token … --polls 500 --wait 30
 */
import { parseArgs } from 'node:util'
import { Agent, request } from 'undici'

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    token: { type: 'string' },
    polls: { type: 'string', default: '500' },
    wait: { type: 'string', default: '30' },
    // The polls start spread over this many seconds, so they are not all answered at once.
    spread: { type: 'string', default: '5' },
  },
})
const polls = Number(values.polls)
const spreadMs = Number(values.spread) * 1000
const headers = { authorization: `Bearer ${values.token}` }
// One connection per poll: a waiting poll holds its connection.
const dispatcher = new Agent({ connections: polls + 10, headersTimeout: 0, bodyTimeout: 0 })
const stopping = new AbortController()
const counts = { answered: 0, changes: 0, failed: 0, statuses: {} as Record<string, number> }

async function follow(): Promise<void> {
  let cursor: string | null = null
  while (!stopping.signal.aborted) {
    const query = cursor ? `?cursor=${encodeURIComponent(cursor)}&wait=${values.wait}` : ''
    try {
      const answer = await request(`${values.base}/v1/changes${query}`, {
        headers,
        dispatcher,
        signal: stopping.signal,
      })
      const body = (await answer.body.json()) as { data?: unknown[]; next_cursor?: string }
      if (answer.statusCode !== 200) {
        counts.failed++
        counts.statuses[answer.statusCode] = (counts.statuses[answer.statusCode] ?? 0) + 1
        await new Promise((done) => setTimeout(done, 1000))
        continue
      }
      if (cursor) counts.answered++
      counts.changes += body.data?.length ?? 0
      cursor = body.next_cursor ?? cursor
    } catch {
      if (stopping.signal.aborted) break
      counts.failed++
      await new Promise((done) => setTimeout(done, 1000))
    }
  }
}

process.once('SIGTERM', () => {
  stopping.abort()
  process.stdout.write(`${JSON.stringify(counts)}\n`, () => process.exit(0))
})
for (let i = 0; i < polls; i++) setTimeout(() => void follow(), (i * spreadMs) / polls)
process.stdout.write('started\n')
