import { sql } from 'kysely'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { Db } from '../db/database.ts'
import type { PoolUse } from '../db/pool-use.ts'
import { registerImportGauges } from './import-gauges.ts'
import { registerPoolMetrics } from './pool-metrics.ts'
import { sharedRead } from './shared-read.ts'

/**
 * What one process tells Prometheus (docs/operations.md, "Metrics"): its requests, database pool,
 * webhook deliveries, open waits, refusals, the outbox and Node's own figures. A registry of its own per app rather than prom-client's global one,
 * so that several apps in one process (tests, benchmarks) never count into one another.
 */
export interface Metrics {
  readonly registry: Registry
  /** Requests answered, by method, route pattern and status. */
  readonly requests: Counter<'method' | 'route' | 'status'>
  /** Seconds from a request's arrival to its answer, by method and route pattern. */
  readonly requestSeconds: Histogram<'method' | 'route'>
  /** Webhook deliveries by the state each attempt (or skip) left them in. */
  readonly webhookDeliveries: Counter<'result'>
  /** Seconds each webhook request took, by whether the receiver took it. */
  readonly webhookAttemptSeconds: Histogram<'outcome'>
  /** Requests held open waiting for changes: long polls of the feed, MCP change streams. */
  readonly openWaits: Gauge<'kind'>
  /** Requests and calls turned away by a rate limit, by budget. */
  readonly rateLimitRefusals: Counter<'budget'>
}

/** Which open wait: a long poll of `GET /v1/changes`, or an MCP `subscriptions/listen` stream. */
export type OpenWaitKind = 'changes_long_poll' | 'mcp_listen'

// Buckets from a cached read to a slow search or a long poll's wait.
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

// From a receiver on the same network to one that lets an attempt run to its deadline.
const WEBHOOK_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15]

/**
 * The process's metrics. With `processMetrics` (a server whose `/metrics` is on), Node's own
 * figures too: memory, event-loop delay, garbage collection, open handles.
 */
export function createMetrics(
  db: Db,
  options: { processMetrics: boolean; pool?: PoolUse | undefined },
): Metrics {
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
  // The pool is read first: a scrape collects every metric at once, and the outbox's queries,
  // started before, would be counted as checkouts waiting on the pool they are waiting for.
  if (options.pool) registerPoolMetrics(options.pool, registry)
  registerOutboxGauges(db, registry)
  registerImportGauges(db, registry)
  const openWaits = new Gauge({
    name: 'workgraph_open_waits',
    help: 'Requests held open waiting for changes now, by kind (changes_long_poll, mcp_listen).',
    labelNames: ['kind'] as const,
    registers: [registry],
  })
  // Both kinds are reported from the start, so a dashboard shows 0 rather than no data.
  for (const kind of ['changes_long_poll', 'mcp_listen'] satisfies OpenWaitKind[])
    openWaits.set({ kind }, 0)
  return {
    registry,
    requests,
    requestSeconds,
    webhookDeliveries: new Counter({
      name: 'workgraph_webhook_deliveries_total',
      help: 'Webhook delivery attempts and skips of this process, by the state they left the delivery in.',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    webhookAttemptSeconds: new Histogram({
      name: 'workgraph_webhook_attempt_duration_seconds',
      help: 'Seconds each webhook request of this process took, by outcome: succeeded (2xx), gone (410) or failed.',
      labelNames: ['outcome'] as const,
      buckets: WEBHOOK_BUCKETS,
      registers: [registry],
    }),
    openWaits,
    rateLimitRefusals: new Counter({
      name: 'workgraph_rate_limit_refusals_total',
      help: 'Requests and MCP calls turned away by a rate limit, by budget.',
      labelNames: ['budget'] as const,
      registers: [registry],
    }),
  }
}

// The outbox as a scrape finds it: events committed and not yet handed to the webhook dispatcher.
// Read from the database (the partial index of pending events), so every instance reports the
// same figures, whichever of them dispatches.
function registerOutboxGauges(db: Db, registry: Registry): void {
  const outbox = sharedRead(async () => {
    const { rows } = await sql<{ pending: number; seconds: number | null }>`
      select count(*)::int as pending,
        extract(epoch from now() - min(created_at))::float8 as seconds
      from events where dispatched_at is null`.execute(db)
    return { pending: rows[0]?.pending ?? 0, seconds: Math.max(0, rows[0]?.seconds ?? 0) }
  })
  new Gauge({
    name: 'workgraph_outbox_pending_events',
    help: 'Events committed and not yet dispatched to webhook endpoints (every workspace).',
    registers: [registry],
    async collect() {
      this.set((await outbox()).pending)
    },
  })
  new Gauge({
    name: 'workgraph_outbox_oldest_pending_seconds',
    help: 'Age of the oldest event not yet dispatched; 0 when none waits.',
    registers: [registry],
    async collect() {
      this.set((await outbox()).seconds)
    },
  })
}
