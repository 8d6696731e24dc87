import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** The folder of the embedded database's own files inside a data folder. */
export function pgdataOf(dataDir: string): string {
  return join(dataDir, 'pgdata')
}

/** Whether a data folder holds a database (made by a start, an init or a restore). */
export function holdsDatabase(dataDir: string): boolean {
  return existsSync(join(pgdataOf(dataDir), 'PG_VERSION'))
}

/**
 * Whether a data folder has no database at all, not even a half-made one: it may hold other
 * files (the secret an operator copied in before a restore, the lock key).
 */
export function hasNoDatabase(dataDir: string): boolean {
  const pgdata = pgdataOf(dataDir)
  return !existsSync(pgdata) || readdirSync(pgdata).length === 0
}
