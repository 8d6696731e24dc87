/**
 * What a summary's tokens are spent on, per resource type: the share that is prose (`text`) and
 * facts, against sources, links and the header. Runs on the demo workspace in memory, as a
 * member (Elena) with every read scope, at the default budget.
 *
 *   node bench/summary-shares.ts [--as elena] [--per-type 1000] [--max-tokens 2000] [--json]
 */
import { parseArgs } from 'node:util'
import { countTokens } from '../packages/server/src/lib/token-budget.ts'
import { summarizeResource } from '../packages/server/src/summaries/run-summary.ts'
import { DEFAULT_SUMMARY_TOKENS } from '../packages/server/src/summaries/summary.schemas.ts'
import { type DemoWorld, idsByType, openDemoWorld } from './demo-world.ts'

/** Token shares of one resource type's summaries, summed over its samples. */
export interface SummaryShares {
  type: string
  samples: number
  /** Mean tokens of a whole summary. */
  meanTokens: number
  /** Percent of all tokens: prose (`text`), facts, and both. */
  prose: number
  facts: number
  proseAndFacts: number
  /** Percent of all tokens in urls, and in ids (the subject's and its sources'). */
  urls: number
  ids: number
  /** Summaries cut to fit the budget, and the largest whole summary of the type. */
  truncated: number
  maxWholeTokens: number
}

/** Measures every summary type for one caller of the demo world. */
export async function benchSummaryShares(
  world: DemoWorld,
  personKey: string,
  perType: number,
  maxTokens: number,
): Promise<SummaryShares[]> {
  const caller = await world.callerOf(personKey)
  const results: SummaryShares[] = []
  for (const [type, ids] of await idsByType(world, caller, perType)) {
    const sum = { total: 0, prose: 0, facts: 0, urls: 0, ids: 0, truncated: 0, samples: 0, max: 0 }
    for (const id of ids) {
      const summary = await summarizeResource(world.deps, caller, id, maxTokens)
      if (!summary) continue
      const { body } = summary
      sum.samples++
      sum.total += body.budget.used_tokens
      sum.prose += countTokens(JSON.stringify(body.text))
      sum.facts += countTokens(JSON.stringify(body.facts))
      const named = [body, ...body.sources]
      sum.urls += named.reduce((n, s) => n + (s.url ? countTokens(JSON.stringify(s.url)) : 0), 0)
      sum.ids += named.reduce((n, s) => n + countTokens(JSON.stringify(s.id)), 0)
      sum.truncated += body.truncated ? 1 : 0
      const whole = await summarizeResource(world.deps, caller, id, 20_000)
      sum.max = Math.max(sum.max, whole?.body.budget.used_tokens ?? 0)
    }
    const pct = (n: number) => Math.round((100 * n) / Math.max(1, sum.total))
    results.push({
      type,
      samples: sum.samples,
      meanTokens: Math.round(sum.total / Math.max(1, sum.samples)),
      prose: pct(sum.prose),
      facts: pct(sum.facts),
      proseAndFacts: pct(sum.prose + sum.facts),
      urls: pct(sum.urls),
      ids: pct(sum.ids),
      truncated: sum.truncated,
      maxWholeTokens: sum.max,
    })
  }
  return results
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      'per-type': { type: 'string', default: '1000' },
      as: { type: 'string', default: 'elena' },
      'max-tokens': { type: 'string', default: String(DEFAULT_SUMMARY_TOKENS) },
      json: { type: 'boolean', default: false },
    },
  })
  const world = await openDemoWorld()
  const rows = await benchSummaryShares(
    world,
    values.as,
    Number(values['per-type']),
    Number(values['max-tokens']),
  )
  await world.close()
  if (values.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`)
  else process.stdout.write(formatShares(rows))
}

/** The shares as a Markdown table, as bench/HISTORY.md shows them. */
export function formatShares(rows: SummaryShares[]): string {
  const lines = [
    '| type | samples | mean tokens | largest whole | prose + facts | prose | facts | urls | ids | cut |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.type} | ${r.samples} | ${r.meanTokens} | ${r.maxWholeTokens} | ${r.proseAndFacts} % | ${r.prose} % | ${r.facts} % | ${r.urls} % | ${r.ids} % | ${r.truncated} |`,
    ),
  ]
  return `${lines.join('\n')}\n`
}
