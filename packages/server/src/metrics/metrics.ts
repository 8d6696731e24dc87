import { sql } from 'kysely'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { Db } from '../db/database.ts'

/**
 * What one process tells Prometheus (docs/operations.md, "Metrics"): its requests, its outbox
 * and Node's own figures. A registry of its own per app rather than prom-client's global one,
 * so that several apps in one process (tests, benchmarks) never count into one another.
 */
export interface Metrics {
  readonly registry: Registry
  /** Requests answered, by method, route pattern and status. */
  readonly requests: Counter<'method' | 'route' | 'status'>
  /** Seconds from a request's arrival to its answer, by method and route pattern. */
  readonly requestSeconds: Histogram<'method' | 'route'>
}

// Buckets from a cached read to a slow search or a long poll's wait.
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/**
 * The process's metrics. With `processMetrics` (a server whose `/metrics` is on), Node's own
 * figures too: memory, event-loop delay, garbage collection, open handles.
 */
export function createMetrics(db: Db, options: { processMetrics: boolean }): Metrics {
  const registry = new Registry()
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'workgraph_' })
  const requests = new Counter({
    name: 'workgraph_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const requestSeconds = new Histogram({
    name: 'workgraph_http_request_duration_seconds',
    help: 'Seconds from the arrival of a request to its answer, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  })
  registerOutboxGauges(db, registry)
  return { registry, requests, requestSeconds }
}

// The outbox as a scrape finds it: events committed and not yet handed to the webhook dispatcher.
// Read from the database (the partial index of pending events), so every instance reports the
// same figures, whichever of them dispatches.
function registerOutboxGauges(db: Db, registry: Registry): void {
  new Gauge({
    name: 'workgraph_outbox_pending_events',
    help: 'Events committed and not yet dispatched to webhook endpoints (every workspace).',
    registers: [registry],
    async collect() {
      const { rows } = await sql<{ pending: number }>`
        select count(*)::int as pending from events where dispatched_at is null`.execute(db)
      this.set(rows[0]?.pending ?? 0)
    },
  })
  new Gauge({
    name: 'workgraph_outbox_oldest_pending_seconds',
    help: 'Age of the oldest event not yet dispatched; 0 when none waits.',
    registers: [registry],
    async collect() {
      const { rows } = await sql<{ seconds: number | null }>`
        select extract(epoch from now() - min(created_at))::float8 as seconds
        from events where dispatched_at is null`.execute(db)
      this.set(Math.max(0, rows[0]?.seconds ?? 0))
    },
  })
}
