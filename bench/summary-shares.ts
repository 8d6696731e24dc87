/**
 * What a summary's tokens are spent on, per resource type: the share that is prose (`text`) and
 * facts, against sources, links and the header. Runs on the demo workspace in memory, as a
 * member (Elena) with every read scope, at the default budget.
 *
 *   node bench/summary-shares.ts [--as elena] [--per-type 1000] [--max-tokens 2000] [--json]
 */
import { parseArgs } from 'node:util'
import { pino } from 'pino'
import type { Caller } from '../packages/server/src/access/caller.ts'
import { countTokens } from '../packages/server/src/lib/token-budget.ts'
import type { McpSession } from '../packages/server/src/mcp/mcp-session.ts'
import { fetchTool } from '../packages/server/src/mcp/tools/fetch.tool.ts'
import { summarizeResource } from '../packages/server/src/summaries/run-summary.ts'
import { DEFAULT_SUMMARY_TOKENS } from '../packages/server/src/summaries/summary.schemas.ts'
import { type DemoWorld, idsByType, openDemoWorld } from './demo-world.ts'

/** Token shares of one resource type's summaries, summed over its samples. */
export interface SummaryShares {
  type: string
  samples: number
  /** Mean tokens of a whole summary: the full JSON (REST's default). */
  meanTokens: number
  /** Percent of the full form's tokens: prose (`text`), facts, and both. */
  prose: number
  facts: number
  proseAndFacts: number
  /** Percent of the full form's tokens in urls, and in ids (the subject's and its sources'). */
  urls: number
  ids: number
  /** Full summaries cut to fit the budget, and the largest whole full summary of the type. */
  truncated: number
  maxWholeTokens: number
  /** The compact JSON (`format=compact`, MCP's structured content): mean tokens, prose + facts. */
  compactTokens: number
  compactProseAndFacts: number
  /** MCP's text of the compact form (`fetch`): mean tokens, prose + facts, summaries cut. */
  mcpTokens: number
  mcpProseAndFacts: number
  mcpTruncated: number
  /** The largest whole compact summary of the type. */
  maxWholeCompact: number
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
  const tokensOf = (value: unknown) => countTokens(JSON.stringify(value))
  for (const [type, ids] of await idsByType(world, caller, perType)) {
    const sum = { total: 0, prose: 0, facts: 0, urls: 0, ids: 0, truncated: 0, samples: 0, max: 0 }
    const compact = { total: 0, said: 0, max: 0 }
    const mcp = { total: 0, said: 0, truncated: 0 }
    for (const id of ids) {
      const summary = await summarizeResource(world.deps, caller, id, maxTokens)
      if (!summary) continue
      const { body } = summary
      sum.samples++
      sum.total += body.budget.used_tokens
      sum.prose += tokensOf(body.text)
      sum.facts += tokensOf(body.facts)
      const named = [body, ...body.sources]
      sum.urls += named.reduce((n, s) => n + (s.url ? tokensOf(s.url) : 0), 0)
      sum.ids += named.reduce((n, s) => n + tokensOf(s.id), 0)
      sum.truncated += body.truncated ? 1 : 0
      const whole = await summarizeResource(world.deps, caller, id, 20_000)
      sum.max = Math.max(sum.max, whole?.body.budget.used_tokens ?? 0)
      const small = await summarizeResource(world.deps, caller, id, maxTokens, 'compact')
      if (!small) continue
      compact.total += small.body.budget.used_tokens
      compact.said += tokensOf(small.body.text) + tokensOf(small.body.facts)
      const wholeSmall = await summarizeResource(world.deps, caller, id, 20_000, 'compact')
      compact.max = Math.max(compact.max, wholeSmall?.body.budget.used_tokens ?? 0)
      // What MCP's `fetch` answers at its default budget: its text, as a model reads it.
      const answer = await fetchTool.run(sessionOf(world, caller), { id })
      const text = answer.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
      const read = answer.structuredContent as {
        text?: string
        facts?: unknown
        truncated?: boolean
      }
      mcp.total += countTokens(text)
      mcp.said += countTokens(read.text ?? '') + countTokens(factsLine(small.body.facts))
      mcp.truncated += text.includes('(Cut to fit max_tokens') ? 1 : 0
    }
    const n = Math.max(1, sum.samples)
    const pct = (part: number, of: number) => Math.round((100 * part) / Math.max(1, of))
    results.push({
      type,
      samples: sum.samples,
      meanTokens: Math.round(sum.total / n),
      prose: pct(sum.prose, sum.total),
      facts: pct(sum.facts, sum.total),
      proseAndFacts: pct(sum.prose + sum.facts, sum.total),
      urls: pct(sum.urls, sum.total),
      ids: pct(sum.ids, sum.total),
      truncated: sum.truncated,
      maxWholeTokens: sum.max,
      compactTokens: Math.round(compact.total / n),
      compactProseAndFacts: pct(compact.said, compact.total),
      mcpTokens: Math.round(mcp.total / n),
      mcpProseAndFacts: pct(mcp.said, mcp.total),
      mcpTruncated: mcp.truncated,
      maxWholeCompact: compact.max,
    })
  }
  return results
}

// An MCP session of the caller, as `fetch` needs one: it reads nothing but the deps and caller.
function sessionOf(world: DemoWorld, caller: Caller): McpSession {
  return {
    deps: world.deps,
    caller,
    origin: { requestId: 'bench', ip: '127.0.0.1', userAgent: null },
    log: pino({ level: 'silent' }),
    feed: undefined as never,
    asker: { signal: new AbortController().signal, reauthenticate: async () => caller },
  }
}

// The facts as MCP's text says them, to count them as what a model reads.
function factsLine(facts: Record<string, unknown>): string {
  return Object.entries(facts)
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join('; ')
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

/** The shares as Markdown tables, as bench/HISTORY.md shows them. */
export function formatShares(rows: SummaryShares[]): string {
  const lines = [
    '| type | samples | full | compact | compact / full | MCP text | prose + facts: full, compact, MCP text | cut: full, MCP | largest whole: full, compact |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.type} | ${r.samples} | ${r.meanTokens} | ${r.compactTokens} | ${Math.round((100 * r.compactTokens) / Math.max(1, r.meanTokens))} % | ${r.mcpTokens} | ${r.proseAndFacts} %, ${r.compactProseAndFacts} %, ${r.mcpProseAndFacts} % | ${r.truncated}, ${r.mcpTruncated} | ${r.maxWholeTokens}, ${r.maxWholeCompact} |`,
    ),
  ]
  return `${lines.join('\n')}\n`
}
