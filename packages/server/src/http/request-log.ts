import type { FastifyInstance, FastifyRequest } from 'fastify'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's URL carries a secret (a one-time link's token): the log names the route's
     * pattern instead, without the query.
     */
    urlHoldsSecret?: boolean
  }
}

// How often the summary of the requests served is logged at `info`.
const SUMMARY_EVERY_MS = 60_000

/** The requests of one summary period: counts by status class and every latency, in ms. */
interface Period {
  byStatus: Record<string, number>
  latencies: number[]
}

/**
 * Logs each request at `debug` when it completes (method, URL, status, time; never headers) and,
 * at `info`, a summary every minute: requests by status class and latency percentiles. Per
 * request lines at `info` cost a cheap route much of its throughput (bench/HISTORY.md,
 * "Throughput"); a minute's summary costs nothing (docs/configuration.md, `LOG_LEVEL`). Probes
 * are left out of both.
 */
export function installRequestLog(app: FastifyInstance): void {
  let period: Period = { byStatus: {}, latencies: [] }
  app.addHook('onResponse', async (request, reply) => {
    if (request.url === '/healthz' || request.url === '/readyz') return
    const ms = reply.elapsedTime
    const status = `${Math.floor(reply.statusCode / 100)}xx`
    period.byStatus[status] = (period.byStatus[status] ?? 0) + 1
    period.latencies.push(ms)
    request.log.debug(
      { method: request.method, url: loggedUrl(request), status: reply.statusCode, ms: round(ms) },
      'request completed',
    )
  })
  const timer = setInterval(() => {
    const done = period
    period = { byStatus: {}, latencies: [] }
    if (done.latencies.length > 0) app.log.info(summaryOf(done), 'requests in the last minute')
  }, SUMMARY_EVERY_MS)
  timer.unref()
  app.addHook('onClose', async () => clearInterval(timer))
}

/** The URL a request is logged with: its route's pattern when the URL holds a secret. */
export function loggedUrl(request: FastifyRequest): string {
  return request.routeOptions.config.urlHoldsSecret ? (request.routeOptions.url ?? '') : request.url
}

/** A period's summary as logged: count, status classes, p50 / p99 / max in ms. */
export function summaryOf(period: Period) {
  const sorted = period.latencies.toSorted((a, b) => a - b)
  const at = (share: number) =>
    round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0)
  return {
    requests: sorted.length,
    by_status: period.byStatus,
    p50_ms: at(0.5),
    p99_ms: at(0.99),
    max_ms: round(sorted.at(-1) ?? 0),
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10
}
