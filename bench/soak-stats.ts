import type { Outcome } from './soak-workload.ts'

const BODIES_KEPT = 3

/** One minute of the soak as measured: requests scheduled in it and where the system stood. */
export interface Minute {
  minute: number
  sent: number
  errors: number
  /** The first few failures of the minute, to say why without reading every log. */
  errorSamples: { route: string; status: number; body: string }[]
  p50: number
  p99: number
  max: number
  /** How late this process sent its latest request (ms): large means the client fell behind. */
  maxLag: number
  /** Each instance's resident memory (MB) at the minute's end. */
  rssMb: number[]
  dbMb: number
}

/** Latency per route over the whole run. */
export interface RouteSummary {
  route: string
  sent: number
  errors: number
  p50: number
  p99: number
}

interface Bucket {
  latencies: number[]
  errors: number
  samples: Minute['errorSamples']
  maxLag: number
}

/** Collects outcomes into per-minute buckets (by when a request was due) and per route. */
export class SoakStats {
  private readonly buckets: Bucket[] = []
  private readonly routes = new Map<string, { latencies: number[]; errors: number }>()

  /** Counts one request due in `minute` that took `ms` from when it was due. */
  add(minute: number, ms: number, lag: number, outcome: Outcome) {
    const bucket = this.bucket(minute)
    bucket.latencies.push(ms)
    bucket.maxLag = Math.max(bucket.maxLag, lag)
    const route = this.routes.get(outcome.route) ?? { latencies: [], errors: 0 }
    this.routes.set(outcome.route, route)
    route.latencies.push(ms)
    if (outcome.ok) return
    bucket.errors++
    route.errors++
    if (bucket.samples.length < BODIES_KEPT)
      bucket.samples.push({
        route: outcome.route,
        status: outcome.status,
        body: outcome.body ?? '',
      })
  }

  /** Closes a minute with the memory and database size measured at its end. */
  minute(minute: number, rssMb: number[], dbMb: number): Minute {
    const bucket = this.bucket(minute)
    const sorted = [...bucket.latencies].sort((a, b) => a - b)
    return {
      minute: minute + 1,
      sent: sorted.length,
      errors: bucket.errors,
      errorSamples: bucket.samples,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: sorted.at(-1) ?? 0,
      maxLag: bucket.maxLag,
      rssMb,
      dbMb,
    }
  }

  /** Every route's count, errors and latency over the run. */
  byRoute(): RouteSummary[] {
    return [...this.routes].map(([route, { latencies, errors }]) => {
      const sorted = [...latencies].sort((a, b) => a - b)
      return {
        route,
        sent: sorted.length,
        errors,
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
      }
    })
  }

  private bucket(minute: number): Bucket {
    this.buckets[minute] ??= { latencies: [], errors: 0, samples: [], maxLag: 0 }
    return this.buckets[minute]
  }
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0
}

/**
 * Whether memory stayed flat: each instance's RSS at the end of the last minute against the end of
 * the second (the first holds start-up and warm-up), within `tolerance` (10 %).
 */
export function memoryVerdict(minutes: Minute[], tolerance = 0.1): string {
  const second = minutes[1]
  const last = minutes.at(-1)
  if (!second || !last || minutes.length < 3)
    return 'memory: too few minutes to tell (needs 3 or more)'
  const growth = last.rssMb.map((mb, i) => mb / (second.rssMb[i] ?? mb) - 1)
  const flat = growth.every((g) => g <= tolerance)
  const each = growth.map((g, i) => `instance ${i + 1} ${g >= 0 ? '+' : ''}${pct(g)}`).join(', ')
  return `memory ${flat ? 'flat' : 'NOT flat'}: RSS minute ${last.minute} vs minute 2: ${each}`
}

/** The per-minute table and the per-route table, as Markdown. */
export function formatSoak(minutes: Minute[], routes: RouteSummary[]): string {
  const instances = minutes[0]?.rssMb.length ?? 0
  const rssHeads = Array.from({ length: instances }, (_, i) => `RSS ${i + 1} MB`)
  const lines = [
    row(['minute', 'sent', 'errors', 'p50 ms', 'p99 ms', 'max ms', ...rssHeads, 'DB MB', 'lag ms']),
    row([
      '---:',
      '---:',
      '---:',
      '---:',
      '---:',
      '---:',
      ...rssHeads.map(() => '---:'),
      '---:',
      '---:',
    ]),
    ...minutes.map((m) =>
      row([
        String(m.minute),
        String(m.sent),
        String(m.errors),
        m.p50.toFixed(1),
        m.p99.toFixed(1),
        m.max.toFixed(0),
        ...m.rssMb.map((mb) => mb.toFixed(0)),
        m.dbMb.toFixed(0),
        m.maxLag.toFixed(0),
      ]),
    ),
    '',
    row(['route', 'sent', 'errors', 'p50 ms', 'p99 ms']),
    row(['---', '---:', '---:', '---:', '---:']),
    ...routes.map((r) =>
      row([r.route, String(r.sent), String(r.errors), r.p50.toFixed(1), r.p99.toFixed(1)]),
    ),
  ]
  return lines.join('\n')
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`
const pct = (value: number) => `${(value * 100).toFixed(1)} %`
