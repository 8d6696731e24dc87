import { parseArgs } from 'node:util'
import type { Logger } from 'pino'
import { buildApp } from '../app.ts'
import { createAppDeps } from '../app-deps.ts'
import { snapshotEmbedded } from '../backup/embedded-snapshot.ts'
import { offerSnapshots } from '../backup/snapshot-channel.ts'
import { loadConfig, loadSecret } from '../config.ts'
import type { DatabaseHandle } from '../db/connect.ts'
import { createLogger } from '../lib/logger.ts'
import { startTracing } from '../telemetry/tracing.ts'
import { startBackgroundJobs } from './background-jobs.ts'
import type { CliIO } from './cli-io.ts'
import { prepareDemo } from './demo-access.ts'
import { firstRunLines } from './first-run-hint.ts'
import { mailLinkHint } from './mail-link-hint.ts'
import { databaseClock, describeDatabase, openMigratedDatabase } from './open-database.ts'
import { stopSignal } from './stop-signal.ts'

/**
 * `workgraph serve [--port 8080] [--host 127.0.0.1] [--data DIR | --database-url URL] [--demo]`:
 * runs the API (and, unless WEBHOOKS_DISPATCH=false, the webhook dispatcher) until SIGTERM or
 * SIGINT, then drains in-flight requests and deliveries and closes the database.
 */
export async function serveCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      'database-url': { type: 'string' },
      demo: { type: 'boolean', default: false },
    },
    strict: true,
  })
  // The demo is a laptop's sandbox: its webhooks may call a receiver on the same machine over
  // plain http unless the setting says otherwise (docs/webhooks.md, "Receiving locally").
  const demoEnv =
    values.demo && io.env.WEBHOOKS_ALLOW_HTTP_LOOPBACK === undefined
      ? { ...io.env, WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' }
      : io.env
  const config = loadConfig(demoEnv, {
    port: values.port,
    host: values.host,
    data: values.data,
    databaseUrl: values['database-url'],
  })
  const secret = loadSecret(demoEnv, config)
  const logger = createLogger(config.logLevel)
  const tracing = startTracing(io.env)
  const handle = await openMigratedDatabase(config, (error) =>
    logger.warn(
      { err: error },
      'a database connection was closed by the server; the pool reconnects on the next query',
    ),
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
  const app = await buildApp(deps, { logger, tracing })
  const jobs = startBackgroundJobs(deps, logger, { dispatch: config.webhooksDispatch })
  const snapshots = await offerBackups(handle, config.dataDir, logger)
  const stopped = stopSignal()
  try {
    const demo = values.demo ? await prepareDemo(handle.db, deps.clock.now(), secret) : undefined
    const firstRun = demo ? [] : await firstRunLines(deps, describeDatabase(config))
    await app.listen({ port: config.port, host: config.host })
    const base = config.publicUrl
    const lines = [
      ``,
      `Workgraph is listening on ${base} (${describeDatabase(config)}).`,
      `Dashboard: ${base}/ (sign in with an email and password; workgraph user set-password sets one).`,
      `API reference: ${base}/reference (the OpenAPI document: ${base}/v1/openapi.json).`,
    ]
    if (demo) {
      lines.push(
        ``,
        `Demo workspace "${demo.workspaceName}" (${demo.workspaceId})${demo.imported ? ', imported just now' : ''}.`,
        `Sign-in for the dashboard and OAuth apps: ${demo.personEmail} / ${demo.password ?? '(the password set with workgraph user set-password)'}`,
        `API key of ${demo.personName}, owner (the same at every start of this data folder): ${demo.apiKey}`,
        ...demo.keyReplaced.map((ended) =>
          ended.byThisStart
            ? `(This start revoked the earlier demo key …${ended.last4}, which it could not print again: it was made with another secret or an earlier version. Webhooks made with it stop; make them again with this key.)`
            : `(The demo key …${ended.last4} was revoked on ${ended.revokedAt.toISOString()}; this is a new one.)`,
        ),
        ...(demo.oauthClient
          ? [
              `Sample OAuth app (public, PKCE): client_id ${demo.oauthClient.id}, redirect ${demo.oauthClient.redirectUri} (docs/oauth.md)`,
            ]
          : []),
        ...(config.webhooksAllowHttpLoopback
          ? [
              `Webhooks may call this machine over plain http (http://127.0.0.1:<port>/…): WEBHOOKS_ALLOW_HTTP_LOOPBACK is on in the demo.`,
            ]
          : []),
        ``,
        `Try it:`,
        `  curl -s -H "Authorization: Bearer ${demo.apiKey}" ${base}/v1/projects`,
        ``,
        `API reference: ${base}/v1/openapi.json`,
      )
    }
    lines.push(...firstRun, ...mailLinkHint(config))
    io.stdout.write(`${lines.join('\n')}\n\n`)
  } catch (error) {
    stopped.cancel()
    await snapshots.close()
    await jobs.stop()
    await app.close()
    clock.stop()
    await handle.close()
    await tracing?.shutdown()
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      io.stderr.write(
        `Port ${config.port} on ${config.host} is already in use. Pass --port or set PORT.\n`,
      )
      return 1
    }
    throw error
  }

  const signal = await stopped.received
  app.log.info({ signal }, 'shutting down: draining in-flight requests')
  deps.lifecycle.draining = true
  await snapshots.close()
  await app.close()
  await jobs.stop()
  clock.stop()
  await handle.close()
  await tracing?.shutdown()
  return 0
}

/**
 * On the embedded database, the channel `workgraph backup` asks for a snapshot through while this
 * process holds the folder (backup/snapshot-channel.ts); none on PostgreSQL, which pg_dump reads.
 */
async function offerBackups(
  handle: DatabaseHandle,
  dataDir: string,
  logger: Logger,
): Promise<{ close(): Promise<void> }> {
  if (!handle.pglite) return { close: async () => {} }
  const offer = await offerSnapshots(dataDir, () => snapshotEmbedded(handle), {
    taken: (bytes) => logger.info({ bytes }, 'took a snapshot of the database for a backup'),
    failed: (error) => logger.error({ err: error }, 'could not take a snapshot for a backup'),
  })
  if ('close' in offer) return offer
  logger.warn(
    { reason: offer.unavailable },
    'workgraph backup cannot ask this server for a snapshot: stop the server to back its folder up',
  )
  return { close: async () => {} }
}
