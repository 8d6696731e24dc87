import type { Logger } from 'pino'
import type { Config } from '../config.ts'
import { type DatabaseHandle, openDatabase } from '../db/connect.ts'
import { DatabaseClock } from '../db/database-clock.ts'
import { DataDirLockedError } from '../db/embedded-lock.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { CommandFailure } from './cli-io.ts'

/** Opens the configured database (PostgreSQL, or the embedded one) and applies migrations. */
export async function openMigratedDatabase(
  config: Config,
  onConnectionError?: (error: Error) => void,
): Promise<DatabaseHandle> {
  const waits = {
    statementTimeoutMs: config.dbStatementTimeoutMs,
    lockTimeoutMs: config.dbLockTimeoutMs,
    idleInTransactionTimeoutMs: config.dbIdleInTransactionTimeoutMs,
    poolWaitMs: config.dbPoolWaitMs,
  }
  const handle = await openDatabase(
    config.databaseUrl
      ? {
          kind: 'postgres',
          url: config.databaseUrl,
          onConnectionError: onConnectionError ?? (() => {}),
          waits,
        }
      : { kind: 'embedded', dataDir: config.dataDir, waits, durable: config.embeddedFsync },
  )
  try {
    await migrateToLatest(handle.db)
    return handle
  } catch (error) {
    await handle.close()
    throw error
  }
}

/**
 * `openMigratedDatabase` for a command an operator runs beside the server (`user set-password`,
 * `init`): an embedded folder that a running server holds is a failure that says what to do
 * rather than only why.
 */
export async function openForCommand(config: Config, command: string): Promise<DatabaseHandle> {
  return openMigratedDatabase(config).catch((error: unknown) => {
    if (!(error instanceof DataDirLockedError)) throw error
    throw new CommandFailure(
      `${error.message} A server holds it: stop it (Ctrl-C where it runs), run this again, then ` +
        `start it; with PostgreSQL (--database-url) ${command} works while servers run.`,
    )
  })
}

/** Where the data lives, in words, for messages. */
export function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `embedded database in ${config.dataDir}`
  const url = new URL(config.databaseUrl)
  return `PostgreSQL at ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`
}

// A difference worth telling the operator of: NTP keeps machines far closer.
const NOTED_SKEW_MS = 2_000

/**
 * The database's clock for a long-running command, measured now and every minute after
 * (db/database-clock.ts). When this machine's clock is far from the database's the log says so:
 * Workgraph's own expiries follow the database, but log times and the OAuth server's own checks
 * of a token's `exp` follow this machine (docs/architecture.md, "Time").
 */
export async function databaseClock(
  handle: DatabaseHandle,
  logger: Logger,
): Promise<DatabaseClock> {
  const clock = await DatabaseClock.measure(DatabaseClock.sourcesOf(handle.db))
  clock.follow((error) =>
    logger.warn(
      { err: error },
      'could not measure the database clock; the last measurement stands',
    ),
  )
  const skew = clock.skewMs()
  if (Math.abs(skew) > NOTED_SKEW_MS)
    logger.warn(
      { skew_ms: Math.round(skew) },
      "this machine's clock differs from the database's: expiries, leases and sweeps follow the database; log times and the OAuth server's token checks follow this machine",
    )
  return clock
}
