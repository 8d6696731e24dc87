import type { Kysely } from 'kysely'
import { PrincipalCache } from './access/principal-cache.ts'
import { MemoryRateLimitStore, type RateLimitStore } from './api/rate-limit-store.ts'
import { SharedRateLimitStore } from './api/shared-rate-limit-store.ts'
import type { Config } from './config.ts'
import type { Database } from './db/database.ts'
import { DatabaseHealth } from './db/database-health.ts'
import type { PoolUse } from './db/pool-use.ts'
import { ChangeSignal } from './lib/change-signal.ts'
import { type Clock, systemClock } from './lib/clock.ts'
import { CursorCodec } from './lib/cursor.ts'
import { deriveOAuthKeys, deriveWebKeys, type OAuthKeys, type WebKeys } from './lib/derived-keys.ts'
import { UrlBuilder } from './lib/resource-urls.ts'
import { SecretBox } from './lib/secret-box.ts'
import { countingRefusals } from './metrics/counted-refusals.ts'
import { createMetrics, type Metrics } from './metrics/metrics.ts'

/** Seams of the write path: tests make a committed-looking write fail; the dispatcher listens. */
export interface WriteHooks {
  /** Runs inside each write's transaction after all its rows are written, just before commit. */
  beforeCommit?: ((route: string) => Promise<void>) | undefined
  /** Runs after each write commits; the in-process webhook dispatcher listens here. */
  afterCommit?: (() => void) | undefined
}

/** Everything route modules and services need, passed explicitly (no globals). */
export interface AppDeps {
  readonly db: Kysely<Database>
  readonly config: Config
  readonly clock: Clock
  readonly principals: PrincipalCache
  readonly cursors: CursorCodec
  readonly urls: UrlBuilder
  /** Encrypts what must be kept at rest and read back (stored responses, webhook secrets). */
  readonly secrets: SecretBox
  /** Request counts per token and minute: in memory on PGlite, shared in PostgreSQL. */
  readonly rateLimits: RateLimitStore
  /** Keys of the OAuth authorization server, derived from the service secret. */
  readonly oauthKeys: OAuthKeys
  /** Keys of the dashboard (its CSRF tokens), derived from the service secret. */
  readonly webKeys: WebKeys
  readonly writeHooks: WriteHooks
  /** Pulsed per workspace when changes commit; long polls of the change feed wait on it. */
  readonly changeSignal: ChangeSignal
  /** Set while the server drains on shutdown, so /readyz turns away new traffic. */
  readonly lifecycle: { draining: boolean }
  /** What requests have shown of the database's health (a full disk), for /readyz. */
  readonly health: DatabaseHealth
  /** What `GET /metrics` reports (docs/operations.md, "Metrics"). */
  readonly metrics: Metrics
}

/** Builds the dependencies of the app from the database, the settings and the service secret. */
export function createAppDeps(options: {
  db: Kysely<Database>
  engine: 'pglite' | 'postgres'
  config: Config
  secret: Buffer
  clock?: Clock
  /** The database pool, whose use the metrics report; without it they leave the pool out. */
  pool?: PoolUse
}): AppDeps {
  const metrics = createMetrics(options.db, {
    processMetrics: options.config.metricsToken !== undefined,
    pool: options.pool,
  })
  // The embedded database admits one process (its lock file), so memory is exact there.
  const rateLimits =
    options.engine === 'postgres'
      ? new SharedRateLimitStore(options.db)
      : new MemoryRateLimitStore()
  return {
    db: options.db,
    config: options.config,
    clock: options.clock ?? systemClock,
    principals: new PrincipalCache(),
    cursors: new CursorCodec(options.secret),
    urls: new UrlBuilder(options.config),
    secrets: new SecretBox(options.secret),
    rateLimits: countingRefusals(rateLimits, metrics.rateLimitRefusals),
    oauthKeys: deriveOAuthKeys(options.secret),
    webKeys: deriveWebKeys(options.secret),
    writeHooks: {},
    changeSignal: new ChangeSignal(),
    lifecycle: { draining: false },
    health: new DatabaseHealth(),
    metrics,
  }
}
