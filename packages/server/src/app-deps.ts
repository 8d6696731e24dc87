import type { Kysely } from 'kysely'
import { PrincipalCache } from './access/principal-cache.ts'
import type { Config } from './config.ts'
import type { Database } from './db/database.ts'
import { type Clock, systemClock } from './lib/clock.ts'
import { CursorCodec } from './lib/cursor.ts'
import { UrlBuilder } from './lib/resource-urls.ts'

/** Everything route modules and services need, passed explicitly (no globals). */
export interface AppDeps {
  readonly db: Kysely<Database>
  readonly config: Config
  readonly clock: Clock
  readonly principals: PrincipalCache
  readonly cursors: CursorCodec
  readonly urls: UrlBuilder
  /** Set while the server drains on shutdown, so /readyz turns away new traffic. */
  readonly lifecycle: { draining: boolean }
}

/** Builds the dependencies of the app from the database, the settings and the service secret. */
export function createAppDeps(options: {
  db: Kysely<Database>
  config: Config
  secret: Buffer
  clock?: Clock
}): AppDeps {
  return {
    db: options.db,
    config: options.config,
    clock: options.clock ?? systemClock,
    principals: new PrincipalCache(),
    cursors: new CursorCodec(options.secret),
    urls: new UrlBuilder(options.config),
    lifecycle: { draining: false },
  }
}
