import type { Load } from './http-load.ts'
import type { ListQueryResult } from './list-queries.ts'
import type { SearchResult } from './search-queries.ts'
import type { SummaryLatency } from './summary-latency.ts'

/** Everything measured on one engine. */
export interface EngineResult {
  engine: string
  importSeconds: number
  importPeakRssMb: number
  dataMb: number
  servePeakMb: number
  /** The server's resident memory once the HTTP load is over. */
  serveRssMb: number
  routes: { name: string; load: Load }[]
  lists: ListQueryResult[]
  search: SearchResult[]
  summaries: SummaryLatency[]
}

const fmt = (n: number, digits = 1) => n.toFixed(digits)
const cpuMs = (ms: number | null) => (ms === null ? '–' : fmt(ms, 2))

/** The benchmark's results as Markdown tables, each number beside its baseline. */
export function formatReport(
  scale: string,
  http: { duration: number; connections: number },
  results: EngineResult[],
): string {
  const lines = [
    `Workgraph benchmark: ${scale === 'demo' ? 'the demo workspace' : `${scale} items`}; HTTP: autocannon, ${http.connections} connections × ${http.duration} s; Node ${process.version}`,
    '',
    '| engine | import s | import peak RSS MB | data MB | serve peak RSS MB | serve RSS after load MB |',
    '|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.engine} | ${fmt(r.importSeconds)} | ${fmt(r.importPeakRssMb, 0)} | ${fmt(r.dataMb, 0)} | ${fmt(r.servePeakMb, 0)} | ${fmt(r.serveRssMb, 0)} |`,
    ),
    '',
    '| engine | route | req/s | p50 ms | p97.5 ms | p99 ms | throughput ÷ bare | ÷ baseline route | server CPU ms/req | PostgreSQL CPU ms/req | failures |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.flatMap((r) => {
      const bare = r.routes[0]?.load.requestsPerSecond ?? 1
      const baseline = r.routes.find(({ name }) => name.includes('baseline'))?.load
      const toBaseline = (load: Load) =>
        baseline ? fmt(load.requestsPerSecond / baseline.requestsPerSecond, 3) : '–'
      return r.routes.map(
        ({ name, load }) =>
          `| ${r.engine} | ${name} | ${fmt(load.requestsPerSecond, 0)} | ${load.p50} | ${load.p97_5} | ${load.p99} | ${fmt(load.requestsPerSecond / bare, 3)} | ${toBaseline(load)} | ${cpuMs(load.serverCpuMs)} | ${cpuMs(load.databaseCpuMs)} | ${load.failures} |`,
      )
    }),
    '',
    'List queries (first page of 20, in-process), with the permission predicate and without it (baseline):',
    '',
    '| engine | principal (tokens) | list | p50 ms | p95 ms | per s | baseline p50 | baseline p95 | baseline per s | predicate cost |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...results.flatMap((r) =>
      r.lists.map(
        (l) =>
          `| ${r.engine} | ${l.principal} (${l.tokens}) | ${l.list} | ${l.filtered.p50} | ${l.filtered.p95} | ${l.filtered.perSecond} | ${l.baseline.p50} | ${l.baseline.p95} | ${l.baseline.perSecond} | ${l.overhead >= 0 ? '+' : ''}${fmt(l.overhead * 100, 0)} % |`,
      ),
    ),
    '',
    'Search (first page of 10 over every type, in-process), with the permission predicate and without it (baseline); terms picked by how many items contain them; the windowed first 10 hits against an exact ranking of every match (shared hits, and summed score kept):',
    '',
    '| engine | principal (tokens) | terms (items matching) | p50 ms | p95 ms | p99 ms | baseline p50 | baseline p95 | baseline p99 | p95 ÷ baseline | top-10 shared | top-10 score kept |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.flatMap((r) =>
      r.search.map(
        (s) =>
          `| ${r.engine} | ${s.principal} (${s.tokens}) | ${s.terms}: ${s.examples.join(', ')} (${s.matches}) | ${s.filtered.p50} | ${s.filtered.p95} | ${s.filtered.p99} | ${s.baseline.p50} | ${s.baseline.p95} | ${s.baseline.p99} | ${s.ratioP95} | ${s.overlapAt10} | ${s.scoreAt10} |`,
      ),
    ),
    '',
    'Summaries (summarize and pack into 1,000 tokens, in-process):',
    '',
    '| engine | principal | kind | samples | p50 ms | p95 ms | p99 ms |',
    '|---|---|---|---|---|---|---|',
    ...results.flatMap((r) =>
      r.summaries.map(
        (s) =>
          `| ${r.engine} | ${s.principal} | ${s.kind} | ${s.samples} | ${s.latency.p50} | ${s.latency.p95} | ${s.latency.p99} |`,
      ),
    ),
  ]
  return lines.join('\n')
}
