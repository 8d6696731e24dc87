import { type Kysely, sql } from 'kysely'
import { type Principal, resolvePrincipal } from '../packages/server/src/access/principal.ts'
import { visibilityFor } from '../packages/server/src/access/visibility.ts'
import type { Database } from '../packages/server/src/db/database.ts'
import { parseQuestion } from '../packages/server/src/search/question-parser.ts'
import { searchIndex } from '../packages/server/src/search/search.queries.ts'
import { baselineVisibility, inTurns } from './baseline-visibility.ts'

/** Search latency for one class of terms and one principal, with and without the predicate. */
export interface SearchResult {
  principal: string
  tokens: number
  terms: string
  examples: string[]
  matches: string
  filtered: Percentiles
  baseline: Percentiles
  ratioP95: number
  /**
   * How many of the first 10 hits the candidate window keeps, against an exact ranking of every
   * match (the same query with an unbounded window), averaged over the terms; 1 is no loss.
   */
  overlapAt10: number
  /** The windowed first 10 hits' summed score over the exact first 10's: 1 when as relevant. */
  scoreAt10: number
}

/** Latency percentiles in milliseconds. */
export interface Percentiles {
  p50: number
  p95: number
  p99: number
}

// Every kind, activity included: what a search without `types` asks for.
const TYPES = ['project', 'canvas', 'task', 'okr', 'comment', 'activity'] as const
// The bench's token reads every type, so hits name their neighbours as a full token's would.
const READABLE = [...TYPES, 'person', 'team'] as const

function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) =>
    Math.round(
      (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number) * 100,
    ) / 100
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) }
}

/**
 * Picks terms by how many items contain them (from the index's own statistics): very common
 * (the most frequent words), medium (about 0.5 % of items) and rare (a few dozen items).
 */
export async function pickTerms(
  db: Kysely<Database>,
  workspaceId: string,
): Promise<Record<string, { words: string[]; ndoc: number[] }>> {
  const stats = await sql<{ word: string; ndoc: number }>`
    select word, ndoc::int from ts_stat(${`select tsv from resource_index where workspace_id = '${workspaceId}'`})
    where length(word) > 3 and word ~ '^[a-z]+$' order by ndoc desc`.execute(db)
  const total = await sql<{
    n: number
  }>`select count(*)::int as n from resource_index where workspace_id = ${workspaceId}`.execute(db)
  const items = total.rows[0]?.n ?? 1
  const rows = stats.rows
  const near = (target: number) => {
    // No word that rare: the rarest there are (never the most common, which index -1 would give).
    const found = rows.findIndex((row) => row.ndoc <= target)
    const index = found === -1 ? Math.max(0, rows.length - 5) : found
    return rows.slice(index, index + 5)
  }
  const pick = (list: typeof rows) => ({
    words: list.map((r) => r.word),
    ndoc: list.map((r) => r.ndoc),
  })
  const common = pick(rows.slice(0, 5))
  const medium = pick(near(items * 0.005))
  const rare = pick(near(30))
  // Questions mixing the classes take the any-word path (ranked by coverage) and the all-words
  // window; typos (a rare word missing its second letter) the trigram path over titles.
  const questions = common.words.map(
    (word, i) => `what is the ${word} of ${medium.words[i] ?? ''} ${rare.words[i] ?? ''}?`,
  )
  const typos = rare.words.map((word) => `${word[0]}${word.slice(2)}`)
  return {
    common,
    medium,
    rare,
    question: { words: questions, ndoc: common.ndoc },
    typo: { words: typos, ndoc: rare.ndoc },
  }
}

/**
 * What the candidate window costs in quality: the first 10 hits with the window against an exact
 * ranking of every match (an unbounded window), averaged over the terms. A term the principal
 * sees no match of counts as no loss.
 */
async function windowQuality(
  db: Kysely<Database>,
  principal: Principal,
  words: string[],
): Promise<{ overlapAt10: number; scoreAt10: number }> {
  let overlap = 0
  let score = 0
  const sum = (rows: { rank: number }[]) => rows.reduce((total, row) => total + row.rank, 0)
  for (const text of words) {
    const visibility = visibilityFor(principal)
    const question = parseQuestion(text, new Date())
    const first = {
      question,
      filters: {},
      types: TYPES,
      readableKinds: READABLE,
      after: null,
      limit: 10,
    }
    const windowed = (await searchIndex(db, visibility, first)).slice(0, 10)
    const exact = (await searchIndex(db, visibility, { ...first, window: 1e9 })).slice(0, 10)
    const exactIds = new Set(exact.map((row) => row.id))
    overlap +=
      exact.length === 0 ? 1 : windowed.filter((row) => exactIds.has(row.id)).length / exact.length
    score += exact.length === 0 ? 1 : sum(windowed) / sum(exact)
  }
  const mean = (total: number) => Math.round((total / words.length) * 100) / 100
  return { overlapAt10: mean(overlap), scoreAt10: mean(score) }
}

/** Runs every term class for every principal, alternating with and without the predicate. */
export async function benchSearch(
  db: Kysely<Database>,
  workspaceId: string,
  people: Record<string, { id: string; role: 'owner' | 'admin' | 'member' | 'guest' }>,
  iterations: number,
  // The exact rankings `windowQuality` compares with read every match: too long at 1,000,000.
  { quality = true }: { quality?: boolean } = {},
): Promise<SearchResult[]> {
  const terms = await pickTerms(db, workspaceId)
  const results: SearchResult[] = []
  for (const [name, person] of Object.entries(people)) {
    const principal: Principal = await resolvePrincipal(db, {
      workspaceId,
      actorId: person.id,
      actorKind: 'person',
      role: person.role,
    })
    for (const [label, { words, ndoc }] of Object.entries(terms)) {
      const filtered: number[] = []
      const baseline: number[] = []
      for (let i = 0; i < iterations + 5; i++) {
        const text = words[i % words.length] as string
        for (const [samples, visibility] of inTurns(
          i,
          [filtered, visibilityFor(principal)] as const,
          [baseline, baselineVisibility(principal)] as const,
        )) {
          const started = performance.now()
          await searchIndex(db, visibility, {
            question: parseQuestion(text, new Date()),
            filters: {},
            types: TYPES,
            readableKinds: READABLE,
            after: null,
            limit: 10,
            // As POST /v1/search asks: work that needs attention first among equals.
            today: new Date().toISOString().slice(0, 10),
          })
          if (i >= 5) samples.push(performance.now() - started)
        }
      }
      const measured = quality
        ? await windowQuality(db, principal, words)
        : { overlapAt10: Number.NaN, scoreAt10: Number.NaN }
      const f = percentiles(filtered)
      const b = percentiles(baseline)
      results.push({
        principal: name,
        tokens: principal.tokens.length,
        terms: label,
        examples: words.slice(0, 3),
        matches: `${Math.min(...ndoc)}–${Math.max(...ndoc)}`,
        filtered: f,
        baseline: b,
        ratioP95: Math.round((f.p95 / b.p95) * 100) / 100,
        ...measured,
      })
    }
  }
  return results
}
