import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { PoolUse } from '../db/pool-use.ts'

// From a connection handed over at once to one that waited as long as DB_POOL_WAIT_MS allows.
const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10]

/**
 * The database pool's use: connections open and busy, checkouts waiting, and how long each waited.
 * A growing wait with every connection busy says the pool or the database is the
 * bottleneck; on the embedded database the pool has one connection, so waits are its queue.
 */
export function registerPoolMetrics(pool: PoolUse, registry: Registry): void {
  new Gauge({
    name: 'workgraph_db_pool_connections',
    help: 'Connections of the database pool by state: in_use (checked out) or idle.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'in_use' }, pool.open - pool.idle)
      this.set({ state: 'idle' }, pool.idle)
    },
  })
  new Gauge({
    name: 'workgraph_db_pool_max_connections',
    help: 'The most connections the database pool opens.',
    registers: [registry],
    collect() {
      this.set(pool.max)
    },
  })
  new Gauge({
    name: 'workgraph_db_pool_waiting_checkouts',
    help: 'Queries waiting now for a connection of the database pool.',
    registers: [registry],
    collect() {
      this.set(pool.waiting)
    },
  })
  const waits = new Histogram({
    name: 'workgraph_db_pool_wait_seconds',
    help: 'Seconds each checkout of the database pool waited for a connection it got.',
    buckets: WAIT_BUCKETS,
    registers: [registry],
  })
  const timeouts = new Counter({
    name: 'workgraph_db_pool_wait_timeouts_total',
    help: 'Checkouts that gave up waiting for a connection (DB_POOL_WAIT_MS); each is a 503.',
    registers: [registry],
  })
  pool.onCheckout((seconds, outcome) => {
    if (outcome === 'acquired') waits.observe(seconds)
    else timeouts.inc()
  })
}
