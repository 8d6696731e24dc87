import { randomUUID } from 'node:crypto'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { problemBody } from '../api/problem-body.ts'
import { type ProblemCode, ProblemError } from '../api/problem-catalogue.ts'
import type { Metrics } from './metrics.ts'
import { metricsTokenCheck } from './metrics-token.ts'

/** A running metrics server and how to stop it. */
export interface MetricsServer {
  readonly port: number
  close(): Promise<void>
}

/**
 * Serves `GET /metrics` (with `METRICS_TOKEN`, as the API does) and `GET /healthz` for a process
 * that answers no API, `workgraph worker`: its webhook deliveries and pool are its own, so only it
 * can report them. Plain node:http, since two fixed answers need no framework.
 */
export async function serveMetrics(
  metrics: Metrics,
  options: { token: string; port: number; host: string; publicUrl: string },
): Promise<MetricsServer> {
  const presentsToken = metricsTokenCheck(options.token)
  // The same problem+json as the API's errors, its `type` a page of the API's.
  const problem = (response: ServerResponse, code: ProblemCode, detail: string) => {
    const body = problemBody(new ProblemError(code, detail), randomUUID(), options.publicUrl)
    send(response, body.status as number, 'application/problem+json', JSON.stringify(body))
  }
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://worker').pathname
    if (path !== '/metrics' && path !== '/healthz')
      return problem(response, 'not_found', 'This process serves only /metrics and /healthz.')
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD')
      return problem(response, 'method_not_allowed', 'Only GET is served here.')
    }
    if (path === '/healthz') return send(response, 200, 'application/json', '{"status":"ok"}')
    if (!presentsToken(request.headers.authorization)) {
      response.setHeader('www-authenticate', 'Bearer realm="metrics"')
      return problem(response, 'unauthenticated', 'Send METRICS_TOKEN as "Bearer <token>".')
    }
    metrics.registry.metrics().then(
      (text) => send(response, 200, metrics.registry.contentType, text),
      () => problem(response, 'service_unavailable', 'The metrics could not be collected.'),
    )
  })
  // A scraper holds its connection open between scrapes; closing must not wait for it.
  server.keepAliveTimeout = 5_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' })
  response.end(body)
}
