import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import { importOk } from '../harness/bundles.ts'
import { checkSearch } from '../harness/check-search.ts'
import { checkSummaries } from '../harness/check-summaries.ts'
import { fenceArbitrary, importWithFence } from '../harness/fenced-viewers.ts'
import { World } from '../harness/oracle.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { firstDifference, snapshotFor } from '../harness/snapshot.ts'
import { stableIds } from '../harness/stable-ids.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'
import { VOCABULARY, worldArbitrary } from '../harness/world-arbitrary.ts'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

test('search returns exactly the visible items whose own text, or their visible project, has the word, paged to the end', async () => {
  await fc.assert(
    fc.asyncProperty(worldArbitrary(), fenceArbitrary, async (bundle, fence) => {
      const { result, world } = await importWithFence(t, bundle, fence)
      await checkSearch(t.app, world, result)
    }),
    { numRuns: PROPERTY_RUNS, ...PROPERTY_SETTINGS },
  )
})

test('summaries cite and link only what the caller may open, count only that, and fit their budget', async () => {
  await fc.assert(
    fc.asyncProperty(
      worldArbitrary(),
      fc.constantFrom(600, 1000, 4000),
      fenceArbitrary,
      async (bundle, maxTokens, fence) => {
        const { result, world } = await importWithFence(t, bundle, fence)
        await checkSummaries(t.app, world, result, maxTokens)
      },
    ),
    { numRuns: Math.max(4, Math.floor(PROPERTY_RUNS / 2)), ...PROPERTY_SETTINGS },
  )
})

/**
 * The same workspace plus content that `who` cannot open: a private project of someone else's.
 * Its name also has words a typo of the vocabulary nearly spells (`srocket` for `sprocket`), so
 * typo tolerance meets title words that only hidden items have.
 */
function withHiddenExtras(bundle: Bundle, who: string, words: number[]): Bundle {
  const other = bundle.people.find((p) => p.key !== who)?.key as string
  const text = words.map((i) => VOCABULARY[i % VOCABULARY.length]).join(' ')
  const extra = structuredClone(bundle)
  extra.projects?.push({
    key: 'x-p',
    // Also a namesake of a visible project: a name given for an id reads only what one may see.
    name: `Hidden ${text} sprockets marrows tundras Project 0`,
    description: text,
    status: 'active',
    visibility: 'private',
    owner: other,
    members: [{ person: other }],
    created_at: '2026-01-02T00:00:00Z',
  })
  extra.tasks?.push(
    {
      key: 'x-t1',
      title: `Hidden task ${text}`,
      description: text,
      status: 'todo',
      project: 'x-p',
      creator: other,
      assignee: other,
      due: '2026-11-01',
      created_at: '2026-01-03T00:00:00Z',
    },
    {
      key: 'x-t2',
      title: `Hidden subtask ${text}`,
      status: 'done',
      project: 'x-p',
      parent: 'x-t1',
      creator: other,
      created_at: '2026-01-01T00:00:00Z',
    },
  )
  extra.canvases?.push({
    key: 'x-c',
    title: `Hidden canvas ${text}`,
    summary: text,
    project: null,
    visibility: 'private',
    owner: other,
    links: ['x-t1'],
    created_at: '2026-01-02T00:00:00Z',
  })
  extra.okrs?.push({
    key: 'x-o',
    title: `Hidden objective ${text}`,
    session: '2026-Q4',
    owner: other,
    visibility: 'private',
    key_results: [{ key: 'x-kr', title: text || 'x', target: 5, current: 1 }],
    created_at: '2026-01-02T00:00:00Z',
  })
  extra.comments?.push({
    key: 'x-m',
    on: 'x-t1',
    author: other,
    body: `Hidden remark ${text}`,
    at: '2026-02-01T00:00:00Z',
  })
  return extra
}

test('noninterference: content a person cannot open leaves every one of their responses unchanged', async () => {
  const now = new Date('2026-11-22T08:00:00.000Z')
  await fc.assert(
    fc.asyncProperty(
      worldArbitrary(),
      fc.nat(),
      fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
      async (bundle, pick, words) => {
        const who = bundle.people[pick % bundle.people.length]?.key as string
        // Equal ids for shared objects, so that ties between equal timestamps break the same way.
        const makeId = stableIds(`${Math.random()}`)
        const plain = await importOk(t.db.db, bundle, { now, makeId })
        const extended = await importOk(t.db.db, withHiddenExtras(bundle, who, words), {
          now,
          makeId,
        })
        const world = new World(bundle)
        const keys = world.allKeys().filter((key) => world.canOpen(who, key))
        const a = await snapshotFor(t.app, t.db.db, plain, who, keys)
        const b = await snapshotFor(t.app, t.db.db, extended, who, keys)
        assert.ok(!b.includes('Hidden'), 'no hidden text reaches the principal')
        assert.ok(a === b, firstDifference(a, b))
      },
    ),
    { numRuns: Math.max(4, Math.floor(PROPERTY_RUNS / 2)), ...PROPERTY_SETTINGS },
  )
})
