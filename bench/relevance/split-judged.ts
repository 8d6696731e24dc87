/**
 * Splits the people's judged questions (questions-*.json in each round's folder, written by three
 * writers who had only the demo bundle of 2026-11-29, a persona and the rules of who sees what)
 * into a development half and a test half, at random within each writer, with a fixed seed so
 * the split can be made again: `node bench/relevance/split-judged.ts [--round 2]`. Tuning reads only
 * dev.json; test.json is reported once, when tuning is done (bench/README.md, "Search
 * relevance").
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

// `--round 2` splits bench/relevance/people-2/, written after round 1's test half was read.
const { values } = parseArgs({ options: { round: { type: 'string', default: '1' } } })
const SEED = values.round === '1' ? 20261129 : 20261129 + Number(values.round)
const dir = join(import.meta.dirname, values.round === '1' ? 'people' : `people-${values.round}`)

// Mulberry32: a small seeded generator, so the split is the same wherever it is run.
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const next = random(SEED)
const dev: unknown[] = []
const test: unknown[] = []
// Writers in the order of their files' names, so each round's split is made the same way.
const files = readdirSync(dir)
  .filter((name) => /^questions-.+\.json$/.test(name))
  .sort()
for (const file of files) {
  const questions = JSON.parse(readFileSync(join(dir, file), 'utf8')) as unknown[]
  const shuffled = questions.map((q) => ({ q, r: next() })).sort((a, b) => a.r - b.r)
  const half = Math.ceil(shuffled.length / 2)
  dev.push(...shuffled.slice(0, half).map((x) => x.q))
  test.push(...shuffled.slice(half).map((x) => x.q))
}
writeFileSync(join(dir, 'dev.json'), `${JSON.stringify(dev, null, 2)}\n`)
writeFileSync(join(dir, 'test.json'), `${JSON.stringify(test, null, 2)}\n`)
console.log(`dev ${dev.length}, test ${test.length}`)
