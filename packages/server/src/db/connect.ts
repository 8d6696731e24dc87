import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { createPgConfig } from '@electric-sql/pglite/node-postgres'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { checkDataFolder } from '../lib/data-folder-check.ts'
import type { Database } from './database.ts'
import { initEmbeddedDataDir } from './embedded-initdb.ts'
import { type DataDirLock, lockDataDir } from './embedded-lock.ts'
import { durableStartParams, EMBEDDED_START_PARAMS, makeFsyncReal } from './embedded-settings.ts'
import { EmptyListsPlugin } from './empty-lists.ts'
import { PoolUse } from './pool-use.ts'
import { PreparingClient } from './prepared-statements.ts'

/** How long anything may wait on the database (docs/configuration.md, "Bounded waits"). */
export interface DatabaseWaits {
  /** The longest one statement runs (PostgreSQL; the embedded engine has no timer for it). */
  statementTimeoutMs: number
  /** The longest a statement waits for a lock (PostgreSQL; the embedded engine has one session). */
  lockTimeoutMs: number
  /** A transaction idle this long is ended by the server, its locks freed (PostgreSQL). */
  idleInTransactionTimeoutMs: number
  /** The longest a query waits for a connection from the pool. */
  poolWaitMs: number
}

/** The waits of a database opened without settings (tests, tools): the settings' defaults. */
export const DEFAULT_WAITS: DatabaseWaits = {
  statementTimeoutMs: 15_000,
  lockTimeoutMs: 5_000,
  idleInTransactionTimeoutMs: 30_000,
  poolWaitMs: 10_000,
}

/** Where the data lives. */
export type DatabaseTarget = (
  | {
      kind: 'postgres'
      url: string
      poolSize?: number
      /** Told of every connection the server ends (restart, failover, an admin's terminate). */
      onConnectionError?: (error: Error) => void
    }
  | {
      kind: 'embedded'
      dataDir: string
      /** Whether a commit waits for the disk (docs/configuration.md, `EMBEDDED_FSYNC`). */
      durable?: boolean
    }
  | { kind: 'embedded-clone'; dump: Blob }
) & { waits?: DatabaseWaits }

/** An open database and how to close it. */
export interface DatabaseHandle {
  readonly db: Kysely<Database>
  readonly engine: 'postgres' | 'pglite'
  /** The embedded engine, for maintenance such as CHECKPOINT and dumps; absent on PostgreSQL. */
  readonly pglite: PGlite | undefined
  /** The connection pool's use, for metrics. */
  readonly pool: PoolUse
  close(): Promise<void>
}

const DATE_OID = 1082
const INT8_OID = 20

// Dates stay `YYYY-MM-DD` strings (a Date would shift them by the time zone); bigint counts
// become numbers (every count here is far below 2^53).
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === DATE_OID) return (value: string) => value
    if (oid === INT8_OID) return (value: string) => Number(value)
    return pg.types.getTypeParser(oid, format)
  },
} as pg.CustomTypesConfig

// Every statement of either engine goes through these (db/empty-lists.ts).
const PLUGINS = [new EmptyListsPlugin()]

/** Contrib extensions the migrations create: PGlite must load their code before it can run them. */
export const extensions = { pg_trgm }

/**
 * Opens the database. Both engines go through Kysely's PostgresDialect over a `pg` pool, so the
 * SQL, migrations and tests are the same; PGlite's pool has exactly one connection.
 */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  const waits = target.waits ?? DEFAULT_WAITS
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize ?? 10,
      types,
      Client: PreparingClient,
      connectionTimeoutMillis: waits.poolWaitMs,
      // JIT pays off for long analytic queries; ours are short, and a plan whose estimate crosses
      // jit_above_cost (a search walking the feed) spent longer compiling than running. Every
      // wait is bounded, so nothing holds a request (or a lock others need) without end.
      options: [
        '-c jit=off',
        `-c statement_timeout=${waits.statementTimeoutMs}`,
        `-c lock_timeout=${waits.lockTimeoutMs}`,
        `-c idle_in_transaction_session_timeout=${waits.idleInTransactionTimeoutMs}`,
      ].join(' '),
    })
    // The server may end any connection (a restart, a failover, pg_terminate_backend), idle in
    // the pool or checked out by a request between two statements of its transaction. pg emits
    // that as an 'error' event on the client, which ends the process unless someone listens: so
    // every client gets a listener. The request's next statement then fails (a 503, see
    // db/connection-failure.ts), and the pool drops the broken client and opens a new one.
    const reportError = (error: Error) => target.onConnectionError?.(error)
    pool.on('error', reportError)
    pool.on('connect', (client) => client.on('error', reportError))
    const use = new PoolUse(pool)
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: use.forKysely() }),
      plugins: PLUGINS,
    })
    return { db, engine: 'postgres', pglite: undefined, pool: use, close: () => db.destroy() }
  }
  let lock: DataDirLock | undefined
  let pglite: PGlite
  const durable = target.kind === 'embedded' && target.durable !== false
  if (target.kind === 'embedded') {
    checkDataFolder(target.dataDir)
    lock = await lockDataDir(target.dataDir)
    try {
      initEmbeddedDataDir(`${target.dataDir}/pgdata`)
    } catch (error) {
      await lock.release()
      throw error
    }
    pglite = new PGlite(`${target.dataDir}/pgdata`, {
      extensions,
      startParams: durable ? durableStartParams() : EMBEDDED_START_PARAMS,
    })
  } else {
    pglite = new PGlite({
      loadDataDir: target.dump,
      extensions,
      startParams: EMBEDDED_START_PARAMS,
    })
  }
  try {
    await pglite.waitReady
    if (durable) makeFsyncReal(pglite)
  } catch (error) {
    await lock?.release()
    throw error
  }
  const pool = new pg.Pool({
    ...createPgConfig(pglite),
    max: 1,
    types,
    Client: PreparingClient,
    // One connection: every request queues for it, and none waits for it without end.
    connectionTimeoutMillis: waits.poolWaitMs,
  })
  const use = new PoolUse(pool)
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: use.forKysely() }),
    plugins: PLUGINS,
  })
  return {
    db,
    engine: 'pglite',
    pglite,
    pool: use,
    async close() {
      await db.destroy()
      await pglite.close()
      await lock?.release()
    },
  }
}
