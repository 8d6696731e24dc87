import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Kysely } from 'kysely'
import { FileMigrationProvider, type MigrationResultSet, Migrator } from 'kysely/migration'
import type { Database } from './database.ts'

// Every file of migrations/ is one migration, applied in the order of its name (0001-graph, …):
// adding one is adding its file. A migration is never edited once it has shipped.
const provider = new FileMigrationProvider({
  fs,
  path,
  migrationFolder: path.join(import.meta.dirname, 'migrations'),
})

/** Applies every pending migration; safe to run from several processes at once (Kysely locks). */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider })
  const result: MigrationResultSet = await migrator.migrateToLatest()
  if (result.error) throw result.error
  return (result.results ?? []).map((r) => r.migrationName)
}
