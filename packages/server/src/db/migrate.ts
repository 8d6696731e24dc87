import { promises as fs } from 'node:fs'
import path from 'node:path'
import { type Kysely, sql } from 'kysely'
import { FileMigrationProvider, type MigrationResultSet, Migrator } from 'kysely/migration'
import type { Database } from './database.ts'

// Every file of migrations/ is one migration, applied in the order of its name (0001-graph, …):
// adding one is adding its file. A migration is never edited once it has shipped.
const provider = new FileMigrationProvider({
  fs,
  path,
  migrationFolder: path.join(import.meta.dirname, 'migrations'),
})

/**
 * Applies every pending migration; safe to run from several processes at once (Kysely locks).
 * On a connection of its own with no statement or lock timeout: an index built over a large
 * workspace, or a wait for another process's migration, may rightly take longer than a request.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  return db.connection().execute(async (connection) => {
    await sql`set statement_timeout = 0`.execute(connection)
    await sql`set lock_timeout = 0`.execute(connection)
    try {
      const migrator = new Migrator({ db: connection, provider })
      const result: MigrationResultSet = await migrator.migrateToLatest()
      if (result.error) throw result.error
      return (result.results ?? []).map((r) => r.migrationName)
    } finally {
      await sql`reset statement_timeout`.execute(connection)
      await sql`reset lock_timeout`.execute(connection)
    }
  })
}
