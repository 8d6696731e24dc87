/**
 * The people's judged questions (bench/relevance/people/, split by split-judged.ts) against the
 * demo workspace of their day, each asked as its writer's persona (Ada the owner, Elena a member,
 * Noor a guest) through `runSearch`, the code behind `POST /v1/search`, on PGlite. Reports mean
 * recall@10 over the questions that have an answer, and how many of those came back empty.
 *
 *   node --conditions=workgraph:source bench/relevance/people-run.ts [--round 2] --set dev [--show]
 *   node --conditions=workgraph:source bench/relevance/people-run.ts [--round 2] --set test --final
 *
 * A test half is read once, when tuning is done: it refuses to run without `--final`. Rounds 1
 * to 4 have been read (bench/HISTORY.md), so their test halves may be tuned on now as
 * `--round N --set spent`; the next held-out set needs a round 5 of new writers.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import { authenticateToken } from '../../packages/server/src/access/authenticate-token.ts'
import { callerOf } from '../../packages/server/src/access/caller.ts'
import { resolvePrincipal } from '../../packages/server/src/access/principal.ts'
import { createAppDeps } from '../../packages/server/src/app-deps.ts'
import { demoBundle } from '../../packages/server/src/bundle/demo/demo-bundle.ts'
import { READ_SCOPES } from '../../packages/server/src/bundle/demo/scaled-bundle.ts'
import { importBundle } from '../../packages/server/src/bundle/import-bundle.ts'
import { loadConfig } from '../../packages/server/src/config.ts'
import { openDatabase } from '../../packages/server/src/db/connect.ts'
import { migrateToLatest } from '../../packages/server/src/db/migrate.ts'
import { ManualClock } from '../../packages/server/src/lib/clock.ts'
import { runSearch } from '../../packages/server/src/search/run-search.ts'

/** One judged question as its writer wrote it. */
interface PeopleQuestion {
  id: string
  asker: string
  question: string
  expected: string[]
  why: string
}

/** The day the writers were given (a Sunday), and the clock the questions are asked at. */
const DAY = '2026-11-29'

const { values } = parseArgs({
  options: {
    round: { type: 'string', default: '1' },
    set: { type: 'string', default: 'dev' },
    final: { type: 'boolean', default: false },
    show: { type: 'boolean', default: false },
    /** Prints how each question was read (`interpreted`) with its misses. */
    explain: { type: 'boolean', default: false },
  },
})
if (values.set === 'test' && !values.final)
  throw new Error('The test half is reported once, when tuning is done: pass --final.')
// A test half once reported (rounds 1 to 4) is development data like its other half.
const SPENT_ROUNDS = ['1', '2', '3', '4']
if (values.set === 'spent' && !SPENT_ROUNDS.includes(values.round))
  throw new Error(`Round ${values.round}'s test half has not been reported: it is not spent.`)
const file = values.set === 'spent' ? 'test' : values.set
const folder = values.round === '1' ? 'people' : `people-${values.round}`
const questions = JSON.parse(
  readFileSync(join(import.meta.dirname, folder, `${file}.json`), 'utf8'),
) as PeopleQuestion[]

const blank = new PGlite()
await blank.waitReady
const handle = await openDatabase({ kind: 'embedded-clone', dump: await blank.dumpDataDir('none') })
await blank.close()
try {
  await migrateToLatest(handle.db)
  const now = new Date(`${DAY}T12:00:00.000Z`)
  const bundle = demoBundle({ today: DAY })
  const askers = [...new Set(questions.map((q) => q.asker))]
  // Each persona reads everything it may open: a key with every read scope.
  bundle.api_keys = [
    ...(bundle.api_keys ?? []),
    ...askers.map((person) => ({ key: `judged-${person}`, person, scopes: [...READ_SCOPES] })),
  ] as typeof bundle.api_keys
  const outcome = await importBundle(handle.db, bundle, { now })
  if (!outcome.ok) throw new Error(`demo import failed: ${JSON.stringify(outcome.problems[0])}`)
  const { ids, api_keys: keys } = outcome.result
  const keyOf = new Map(Object.entries(ids).map(([key, id]) => [id, key]))
  const deps = createAppDeps({
    db: handle.db,
    engine: 'pglite',
    config: loadConfig({ LOG_LEVEL: 'silent' }),
    secret: Buffer.alloc(32, 3),
    clock: new ManualClock(now),
  })
  const callers = new Map<string, Awaited<ReturnType<typeof callerOfPerson>>>()
  async function callerOfPerson(person: string) {
    const identity = await authenticateToken(
      handle.db,
      keys[`judged-${person}`]?.token as string,
      now,
    )
    if (typeof identity === 'string') throw new Error(`${person}'s key is ${identity}`)
    return callerOf(await resolvePrincipal(handle.db, identity.actor), identity.credential)
  }
  const scores: { id: string; recall: number; empty: boolean; missed: string[] }[] = []
  let nothingRight = 0
  let nothingExpected = 0
  for (const question of questions) {
    const caller = callers.get(question.asker) ?? (await callerOfPerson(question.asker))
    callers.set(question.asker, caller)
    const answer = JSON.parse(
      await runSearch(deps, caller, { query: question.question, limit: 10, max_tokens: 20_000 }),
    ) as { results: { id: string }[]; interpreted?: unknown }
    const got = answer.results.map((hit) => keyOf.get(hit.id) ?? hit.id).slice(0, 10)
    if (values.explain && values.set !== 'test')
      console.log(`${question.id} ${question.question}\n  ${JSON.stringify(answer.interpreted)}`)
    if (question.expected.length === 0) {
      nothingExpected++
      if (got.length === 0) nothingRight++
      continue
    }
    const wanted = new Set(question.expected)
    const found = got.filter((key) => wanted.has(key)).length
    scores.push({
      id: question.id,
      recall: found / Math.min(question.expected.length, 10),
      empty: got.length === 0,
      missed: question.expected.filter((key) => !got.includes(key)),
    })
  }
  const mean = scores.reduce((sum, s) => sum + s.recall, 0) / Math.max(1, scores.length)
  const empties = scores.filter((s) => s.empty).length
  console.log(
    `${values.set}: ${questions.length} questions; recall@10 ${mean.toFixed(2)} over the ${scores.length} that have an answer; ${empties} of them answered empty; ${nothingRight} of ${nothingExpected} that have none answered empty`,
  )
  if (values.show && values.set !== 'test')
    for (const s of scores.filter((x) => x.recall < 1)) {
      const q = questions.find((x) => x.id === s.id)
      console.log(
        `${s.recall.toFixed(2)}${s.empty ? ' EMPTY' : ''} ${s.id} (${q?.asker}) ${q?.question} — missed ${s.missed.slice(0, 4).join(', ')}`,
      )
    }
} finally {
  await handle.close()
}
