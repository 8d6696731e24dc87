import { parseArgs } from 'node:util'
import { createAppDeps } from '../app-deps.ts'
import { loadConfig, loadSecret } from '../config.ts'
import { createLogger } from '../lib/logger.ts'
import { type MetricsServer, serveMetrics } from '../metrics/metrics-server.ts'
import { startTracing } from '../telemetry/tracing.ts'
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.ts'
import { startBackgroundJobs } from './background-jobs.ts'
import type { CliIO } from './cli-io.ts'
import { databaseClock, openMigratedDatabase } from './open-database.ts'
import { stopSignal } from './stop-signal.ts'

/**
 * `workgraph worker [--data DIR | --database-url URL] [--once]`: delivers webhooks without serving
 * the API. Run any number of them beside API instances started with WEBHOOKS_DISPATCH=false.
 * `--once` delivers everything due now and exits (for cron and tests). With METRICS_TOKEN set, it
 * serves its own `/metrics` on METRICS_PORT (docs/operations.md, "Metrics").
 */
export async function workerCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      data: { type: 'string' },
      'database-url': { type: 'string' },
      once: { type: 'boolean', default: false },
    },
    strict: true,
  })
  const config = loadConfig(io.env, { data: values.data, databaseUrl: values['database-url'] })
  const secret = loadSecret(io.env, config)
  const logger = createLogger(config.logLevel)
  const tracing = startTracing(io.env)
  const handle = await openMigratedDatabase(config, (error) =>
    logger.warn({ err: error }, 'a database connection was closed; the pool reconnects'),
  )
  const clock = await databaseClock(handle, logger)
  const deps = createAppDeps({
    db: handle.db,
    engine: handle.engine,
    pool: handle.pool,
    config,
    secret,
    clock,
  })
  try {
    if (values.once) {
      const dispatcher = new WebhookDispatcher(deps)
      await dispatcher.drain()
      await dispatcher.stop()
      return 0
    }
    let metricsServer: MetricsServer | undefined
    if (config.metricsToken !== undefined) {
      try {
        metricsServer = await serveMetrics(deps.metrics, {
          token: config.metricsToken,
          port: config.metricsPort,
          host: config.host,
          publicUrl: config.publicUrl,
        })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
        io.stderr.write(
          `Port ${config.metricsPort} on ${config.host} is already in use. Set METRICS_PORT.\n`,
        )
        return 1
      }
      io.stdout.write(
        `Metrics: http://${config.host}:${metricsServer.port}/metrics (METRICS_TOKEN).\n`,
      )
    }
    const stopped = stopSignal()
    const jobs = startBackgroundJobs(deps, logger, { dispatch: true })
    io.stdout.write('Workgraph worker: delivering webhooks until SIGTERM or SIGINT.\n')
    const signal = await stopped.received
    logger.info({ signal }, 'worker shutting down: finishing deliveries in flight')
    await jobs.stop()
    await metricsServer?.close()
    return 0
  } finally {
    clock.stop()
    await handle.close()
    await tracing?.shutdown()
  }
}
