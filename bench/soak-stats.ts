import type { Outcome } from './soak-workload.ts'

const BODIES_KEPT = 3

/** One minute of the soak as measured: requests scheduled in it and where the system stood. */
export interface Minute extends MinuteEnd {
  minute: number
  sent: number
  /** Answers (or failures) that came in during the minute: below `sent`, the server fell behind. */
  answered: number
  errors: number
  /** The first few failures of the minute, to say why without reading every log. */
  errorSamples: { route: string; status: number; body: string }[]
  p50: number
  p99: number
  max: number
  /** How late this process sent its latest request (ms): large means the client fell behind. */
  maxLag: number
}

/** Where the system stood at a minute's end, and the CPU it used during the minute. */
export interface MinuteEnd {
  /** Each instance's open file descriptors but sockets at the minute's end. */
  fds: number[]
  /** Each instance's open sockets (client and database connections) at the minute's end. */
  sockets: number[]
  /** Each instance's peak resident memory (MB) in the minute, read every 5 s and at its end. */
  rssMb: number[]
  dbMb: number
  /** Each instance's CPU, percent of one core (the machine has two). */
  cpu: number[]
  /** The database's PostgreSQL backends together, percent of one core. */
  pgCpu: number
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
  answered: number
  errors: number
  samples: Minute['errorSamples']
  maxLag: number
}

/** Collects outcomes into per-minute buckets (by when a request was due) and per route. */
export class SoakStats {
  private readonly buckets: Bucket[] = []
  private readonly routes = new Map<string, { latencies: number[]; errors: number }>()
  private readonly kinds = new Map<string, number>()

  /** Counts one request due in `minute`, answered in `answeredIn`, `ms` after it was due. */
  add(minute: number, answeredIn: number, ms: number, lag: number, outcome: Outcome) {
    this.bucket(answeredIn).answered++
    const bucket = this.bucket(minute)
    bucket.latencies.push(ms)
    bucket.maxLag = Math.max(bucket.maxLag, lag)
    const route = this.routes.get(outcome.route) ?? { latencies: [], errors: 0 }
    this.routes.set(outcome.route, route)
    route.latencies.push(ms)
    if (outcome.ok) return
    bucket.errors++
    route.errors++
    const kind = outcome.status === 0 ? 'no answer' : String(outcome.status)
    this.kinds.set(kind, (this.kinds.get(kind) ?? 0) + 1)
    // The first few of a minute, and the first of each status, so time-outs hide no 500.
    const known = bucket.samples.some((sample) => sample.status === outcome.status)
    if (bucket.samples.length < BODIES_KEPT || (!known && bucket.samples.length < 2 * BODIES_KEPT))
      bucket.samples.push({
        route: outcome.route,
        status: outcome.status,
        body: outcome.body ?? '',
      })
  }

  /** Closes a minute with the memory and database size measured at its end. */
  minute(minute: number, end: MinuteEnd): Minute {
    const bucket = this.bucket(minute)
    const sorted = [...bucket.latencies].sort((a, b) => a - b)
    return {
      minute: minute + 1,
      sent: sorted.length,
      answered: bucket.answered,
      errors: bucket.errors,
      errorSamples: bucket.samples,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: sorted.at(-1) ?? 0,
      maxLag: bucket.maxLag,
      ...end,
    }
  }

  /** Errors over the run by status (`no answer` for time-outs and network errors). */
  errorKinds(): Record<string, number> {
    return Object.fromEntries(this.kinds)
  }

  /** How many minutes saw a request due or answered (answers can trail the last due minute). */
  minutes(): number {
    return this.buckets.length
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
    this.buckets[minute] ??= { latencies: [], answered: 0, errors: 0, samples: [], maxLag: 0 }
    return this.buckets[minute]
  }
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0
}

/**
 * Whether memory stayed flat: each instance's peak RSS in the last minute of load against the
 * second's (the first holds start-up and warm-up), within `tolerance` (10 %).
 */
export function memoryVerdict(table: Minute[], tolerance = 0.1): string {
  // Minutes that only drained late answers are not the load's.
  const minutes = table.filter((m) => m.sent > 0)
  const second = minutes[1]
  const last = minutes.at(-1)
  if (!second || !last || minutes.length < 3)
    return 'memory: too few minutes to tell (needs 3 or more)'
  const growth = last.rssMb.map((mb, i) => mb / (second.rssMb[i] ?? mb) - 1)
  const flat = growth.every((g) => g <= tolerance)
  const each = growth.map((g, i) => `instance ${i + 1} ${g >= 0 ? '+' : ''}${pct(g)}`).join(', ')
  return `memory ${flat ? 'flat' : 'NOT flat'}: RSS minute ${last.minute} vs minute 2 (peaks): ${each}`
}

/**
 * Whether memory and file descriptors trend upward over the load's second half: the
 * least-squares slope of each instance's minute peaks of RSS, in MB a minute (flat: at most
 * 0.25, a fifteenth of what a leak of the kind once found grew by), and the spread of its
 * open file descriptors other than sockets (steady: within 10; sockets follow the load).
 */
export function trendVerdict(table: Minute[]): string {
  const minutes = table.filter((m) => m.sent > 0)
  const half = minutes.slice(Math.floor(minutes.length / 2))
  if (half.length < 3) return 'trend: too few minutes to tell (needs 6 or more)'
  const instances = half[0]?.rssMb.length ?? 0
  const parts: string[] = []
  let flat = true
  for (let i = 0; i < instances; i++) {
    const xs = half.map((m) => m.minute)
    const ys = half.map((m) => m.rssMb[i] ?? 0)
    const mx = xs.reduce((a, b) => a + b, 0) / xs.length
    const my = ys.reduce((a, b) => a + b, 0) / ys.length
    const slope =
      xs.reduce((sum, x, k) => sum + (x - mx) * ((ys[k] ?? 0) - my), 0) /
      xs.reduce((sum, x) => sum + (x - mx) ** 2, 0)
    const fds = half.map((m) => m.fds[i] ?? 0)
    const sockets = half.map((m) => m.sockets[i] ?? 0)
    const spread = Math.max(...fds) - Math.min(...fds)
    flat &&= slope <= 0.25 && spread <= 10
    parts.push(
      `instance ${i + 1}: RSS ${slope >= 0 ? '+' : ''}${slope.toFixed(2)} MB/min, fds ${Math.min(...fds)}–${Math.max(...fds)}, sockets ${Math.min(...sockets)}–${Math.max(...sockets)}`,
    )
  }
  return `second half ${flat ? 'flat' : 'NOT flat'} (minutes ${half[0]?.minute}–${half.at(-1)?.minute}): ${parts.join('; ')}`
}

/** The per-minute table and the per-route table, as Markdown. */
export function formatSoak(minutes: Minute[], routes: RouteSummary[]): string {
  const instances = Array.from({ length: minutes[0]?.rssMb.length ?? 0 }, (_, i) => i)
  const columns: [string, (m: Minute) => string][] = [
    ['minute', (m) => String(m.minute)],
    ['sent', (m) => String(m.sent)],
    ['answered', (m) => String(m.answered)],
    ['errors', (m) => String(m.errors)],
    ['p50 ms', (m) => m.p50.toFixed(1)],
    ['p99 ms', (m) => m.p99.toFixed(1)],
    ['max ms', (m) => m.max.toFixed(0)],
    ...instances.map((i): [string, (m: Minute) => string] => [
      `RSS ${i + 1} MB`,
      (m) => (m.rssMb[i] ?? 0).toFixed(0),
    ]),
    ...instances.map((i): [string, (m: Minute) => string] => [
      `fds ${i + 1}`,
      (m) => String(m.fds[i] ?? 0),
    ]),
    ...instances.map((i): [string, (m: Minute) => string] => [
      `sockets ${i + 1}`,
      (m) => String(m.sockets[i] ?? 0),
    ]),
    ['DB MB', (m) => m.dbMb.toFixed(0)],
    ...instances.map((i): [string, (m: Minute) => string] => [
      `CPU ${i + 1} %`,
      (m) => (m.cpu[i] ?? 0).toFixed(0),
    ]),
    ['PG CPU %', (m) => m.pgCpu.toFixed(0)],
    ['lag ms', (m) => m.maxLag.toFixed(0)],
  ]
  const lines = [
    row(columns.map(([head]) => head)),
    row(columns.map(() => '---:')),
    ...minutes.map((m) => row(columns.map(([, cell]) => cell(m)))),
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
