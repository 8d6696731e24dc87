import { PGlite } from '@electric-sql/pglite'
import type { Kysely } from 'kysely'
import pg from 'pg'
import { authenticateToken } from '../../packages/server/src/access/authenticate-token.ts'
import { callerOf } from '../../packages/server/src/access/caller.ts'
import { resolvePrincipal } from '../../packages/server/src/access/principal.ts'
import { visibleAmong } from '../../packages/server/src/access/visibility.ts'
import { createAppDeps } from '../../packages/server/src/app-deps.ts'
import type { Bundle } from '../../packages/server/src/bundle/bundle.schema.ts'
import { demoBundle } from '../../packages/server/src/bundle/demo/demo-bundle.ts'
import { importBundle } from '../../packages/server/src/bundle/import-bundle.ts'
import { loadConfig } from '../../packages/server/src/config.ts'
import { openDatabase } from '../../packages/server/src/db/connect.ts'
import type { Database } from '../../packages/server/src/db/database.ts'
import { migrateToLatest } from '../../packages/server/src/db/migrate.ts'
import { ManualClock } from '../../packages/server/src/lib/clock.ts'
import { runSearch } from '../../packages/server/src/search/run-search.ts'
import { type JudgedQuestion, QUESTIONS, RELEVANCE_TODAY } from './questions.ts'

/** How well search answered one judged question. */
export interface QuestionScore {
  query: string
  expected: number
  /** Share of the expected items in the first 10 hits (of at most 10 expected). */
  recallAt10: number
  /** Discounted gain of the first 10 hits over the ideal order's; binary relevance. */
  ndcgAt10: number
  /** Share of the first 3 hits that are expected (of at most as many as are expected). */
  precisionAt3: number
  /** Expected items missing from the first 10, by title. */
  missed: string[]
}

/** The judged set's scores on one engine. */
export interface RelevanceResult {
  engine: string
  questions: QuestionScore[]
  /** Questions whose every expected item is hidden from the owner: left out of the means. */
  unanswerable: string[]
  recallAt10: number
  ndcgAt10: number
  precisionAt3: number
}

const mean = (values: number[]) =>
  Math.round((values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1)) * 1000) / 1000

/** The keys a question expects, resolved against the bundle. */
export function expectedKeys(question: JudgedQuestion, bundle: Bundle): string[] {
  const titled = new Map<string, string[]>()
  const add = (title: string, key: string) => titled.set(title, [...(titled.get(title) ?? []), key])
  for (const p of bundle.projects ?? []) add(p.name, p.key)
  for (const c of bundle.canvases ?? []) add(c.title, c.key)
  for (const t of bundle.tasks ?? []) add(t.title, t.key)
  for (const o of bundle.okrs ?? []) add(o.title, o.key)
  return [
    ...new Set([
      ...(question.keys ?? []),
      ...(question.titles ?? []).flatMap((title) => titled.get(title) ?? []),
      ...(question.where?.(bundle) ?? []),
    ]),
  ]
}

/**
 * Imports the demo workspace into `db` (migrated, empty) and asks every judged question as its
 * owner through `runSearch`, the code behind `POST /v1/search`, with the clock at the demo's day.
 */
export async function benchRelevance(
  db: Kysely<Database>,
  engine: string,
): Promise<RelevanceResult> {
  const now = new Date(`${RELEVANCE_TODAY}T12:00:00.000Z`)
  const bundle = demoBundle({ today: RELEVANCE_TODAY })
  const outcome = await importBundle(db, bundle, { now })
  if (!outcome.ok) throw new Error(`demo import failed: ${JSON.stringify(outcome.problems[0])}`)
  const { ids, api_keys: keys } = outcome.result
  const identity = await authenticateToken(db, keys['ada-key']?.token as string, now)
  if (typeof identity === 'string') throw new Error(`the owner's key is ${identity}`)
  const caller = callerOf(await resolvePrincipal(db, identity.actor), identity.credential)
  const deps = createAppDeps({
    db,
    engine: engine === 'postgres' ? 'postgres' : 'pglite',
    config: loadConfig({ LOG_LEVEL: 'silent' }),
    secret: Buffer.alloc(32, 3),
    clock: new ManualClock(now),
  })
  const keyOf = new Map(Object.entries(ids).map(([key, id]) => [id, key]))
  const titleOf = new Map<string, string>()
  for (const item of [
    ...(bundle.projects ?? []).map((p) => [p.key, p.name]),
    ...(bundle.canvases ?? []).map((c) => [c.key, c.title]),
    ...(bundle.tasks ?? []).map((t) => [t.key, t.title]),
    ...(bundle.okrs ?? []).map((o) => [o.key, o.title]),
    ...bundle.people.map((p) => [p.key, p.name]),
    ...(bundle.teams ?? []).map((t) => [t.key, t.name]),
  ]) {
    titleOf.set(item[0] as string, item[1] as string)
  }
  const questions: QuestionScore[] = []
  const unanswerable: string[] = []
  for (const question of QUESTIONS) {
    // Search must never return what the asker cannot open (the owner is no member of a private
    // project), so such items are not expected of it.
    const judged = expectedKeys(question, bundle)
    // People and teams count too: `visibleAmong` knows every kind of id.
    const open = await visibleAmong(
      db,
      caller.visibility,
      judged.map((key) => ids[key] as string),
    )
    const expected = judged.filter((key) => open.has(ids[key] as string))
    if (judged.length > 0 && expected.length === 0) {
      unanswerable.push(question.query)
      continue
    }
    const answer = JSON.parse(
      await runSearch(deps, caller, { query: question.query, limit: 10, max_tokens: 20_000 }),
    ) as { results: { id: string }[] }
    const got = answer.results.map((hit) => keyOf.get(hit.id) ?? hit.id).slice(0, 10)
    const wanted = new Set(expected)
    const found = got.filter((key) => wanted.has(key)).length
    const dcg = got.reduce((sum, key, i) => sum + (wanted.has(key) ? 1 / Math.log2(i + 2) : 0), 0)
    let ideal = 0
    for (let i = 0; i < Math.min(expected.length, 10); i++) ideal += 1 / Math.log2(i + 2)
    // A question whose answer is "nothing" scores 1 when nothing is returned.
    const empty = expected.length === 0
    questions.push({
      query: question.query,
      expected: expected.length,
      recallAt10: empty ? (got.length === 0 ? 1 : 0) : found / Math.min(expected.length, 10),
      ndcgAt10: empty ? (got.length === 0 ? 1 : 0) : dcg / ideal,
      precisionAt3: empty
        ? got.length === 0
          ? 1
          : 0
        : got.slice(0, 3).filter((key) => wanted.has(key)).length / Math.min(expected.length, 3),
      missed: expected.filter((key) => !got.includes(key)).map((key) => titleOf.get(key) ?? key),
    })
  }
  return {
    engine,
    questions,
    unanswerable,
    recallAt10: mean(questions.map((q) => q.recallAt10)),
    ndcgAt10: mean(questions.map((q) => q.ndcgAt10)),
    precisionAt3: mean(questions.map((q) => q.precisionAt3)),
  }
}

/** The scores as Markdown: the means per engine, then each question that lost anything. */
export function formatRelevance(results: RelevanceResult[]): string {
  const fmt = (n: number) => n.toFixed(2)
  return [
    `Search relevance: ${QUESTIONS.length} judged questions over the demo workspace, asked as its owner (left out, every expected item hidden from the owner: ${results[0]?.unanswerable.map((q) => `"${q}"`).join(', ') || 'none'}):`,
    '',
    '| engine | recall@10 | nDCG@10 | precision@3 |',
    '|---|---|---|---|',
    ...results.map(
      (r) => `| ${r.engine} | ${fmt(r.recallAt10)} | ${fmt(r.ndcgAt10)} | ${fmt(r.precisionAt3)} |`,
    ),
    '',
    '| engine | question | expected | recall@10 | nDCG@10 | precision@3 | missed |',
    '|---|---|---|---|---|---|---|',
    ...results.flatMap((r) =>
      r.questions
        .filter((q) => q.recallAt10 < 1 || q.ndcgAt10 < 0.999 || q.precisionAt3 < 1)
        .map(
          (q) =>
            `| ${r.engine} | ${q.query} | ${q.expected} | ${fmt(q.recallAt10)} | ${fmt(q.ndcgAt10)} | ${fmt(q.precisionAt3)} | ${q.missed.slice(0, 3).join('; ')} |`,
        ),
    ),
  ].join('\n')
}

/** Scores one engine in a fresh database of its own. */
export async function relevanceOn(engine: string): Promise<RelevanceResult> {
  if (engine === 'pglite') {
    const blank = new PGlite()
    await blank.waitReady
    const handle = await openDatabase({
      kind: 'embedded-clone',
      dump: await blank.dumpDataDir('none'),
    })
    await blank.close()
    try {
      await migrateToLatest(handle.db)
      return await benchRelevance(handle.db, engine)
    } finally {
      await handle.close()
    }
  }
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  const name = `wg_relevance_${process.pid}`
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.query(`create database ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const handle = await openDatabase({ kind: 'postgres', url: url.toString() })
  try {
    await migrateToLatest(handle.db)
    return await benchRelevance(handle.db, engine)
  } finally {
    await handle.close()
    await admin.query(`drop database if exists ${name} with (force)`)
    await admin.end()
  }
}
