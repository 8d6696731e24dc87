import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import { demoBundle } from '../../src/bundle/demo/demo-bundle.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { ALL_READ_SCOPES, importOk, tokenOf } from './bundles.ts'
import { client, startTestApp, type TestApp } from './test-app.ts'

/** The day the people's judged questions were written for (a Sunday), and the clock's. */
export const DEMO_SEARCH_DAY = '2026-11-29'

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
type Json = any

/** A task of the demo bundle. */
export type DemoTask = NonNullable<Bundle['tasks']>[number]

/** The demo workspace of `DEMO_SEARCH_DAY`, and how a test asks it questions. */
export interface DemoSearch {
  readonly bundle: Bundle
  readonly ws: ImportResult
  /**
   * Asks `POST /v1/search` as the key's owner (Ada, the owner, by default): a question, or a
   * whole body; its 200 answer.
   */
  ask(query: string | Record<string, unknown>, key?: string): Promise<Json>
  /** The hits' bundle keys, in order. */
  keys(answer: Json): string[]
  /** The keys of the bundle's tasks that `keep` keeps, sorted. */
  tasks(keep: (task: DemoTask) => boolean): string[]
}

/**
 * Serves the demo workspace of `DEMO_SEARCH_DAY` for the file's tests (registered with its
 * `before` and `after`), with a reading key for each of `people` beside the bundle's own.
 */
export function demoSearch(people: readonly string[] = []): DemoSearch {
  let t: TestApp
  let ws: ImportResult
  const bundle = demoBundle({ today: DEMO_SEARCH_DAY })
  bundle.api_keys = [
    ...(bundle.api_keys ?? []),
    ...people.map((person) => ({ key: `${person}-key`, person, scopes: ALL_READ_SCOPES })),
  ]
  before(async () => {
    const now = new Date(`${DEMO_SEARCH_DAY}T12:00:00.000Z`)
    t = await startTestApp({ clock: new ManualClock(now.toISOString()) })
    ws = await importOk(t.db.db, bundle, { now })
  })
  after(() => t.close())
  return {
    bundle,
    get ws() {
      return ws
    },
    async ask(query, key = 'ada-key') {
      const body = typeof query === 'string' ? { query } : query
      const reply = await client(t.app, tokenOf(ws, key)).post('/v1/search', {
        limit: 50,
        max_tokens: 20_000,
        ...body,
      })
      assert.equal(reply.status, 200, reply.body)
      return reply.json
    },
    keys: (answer) =>
      answer.results.map(
        (hit: Json) => Object.entries(ws.ids).find(([, id]) => id === hit.id)?.[0] ?? hit.id,
      ),
    tasks: (keep) =>
      (bundle.tasks ?? [])
        .filter(keep)
        .map((task) => task.key)
        .sort(),
  }
}
