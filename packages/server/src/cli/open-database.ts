import type { Config } from '../config.ts'
import { type DatabaseHandle, openDatabase } from '../db/connect.ts'
import { migrateToLatest } from '../db/migrate.ts'

/** Opens the configured database (PostgreSQL, or the embedded one) and applies migrations. */
export async function openMigratedDatabase(
  config: Config,
  onConnectionError?: (error: Error) => void,
): Promise<DatabaseHandle> {
  const handle = await openDatabase(
    config.databaseUrl
      ? {
          kind: 'postgres',
          url: config.databaseUrl,
          onConnectionError: onConnectionError ?? (() => {}),
        }
      : { kind: 'embedded', dataDir: config.dataDir },
  )
  try {
    await migrateToLatest(handle.db)
    return handle
  } catch (error) {
    await handle.close()
    throw error
  }
}

/** Where the data lives, in words, for messages. */
export function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `embedded database in ${config.dataDir}`
  const url = new URL(config.databaseUrl)
  return `PostgreSQL at ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`
}
