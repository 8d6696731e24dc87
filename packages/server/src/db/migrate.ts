import type { Kysely } from 'kysely'
import { type MigrationResultSet, Migrator } from 'kysely/migration'
import type { Database } from './database.ts'
import { migrations } from './migrations/index.ts'

/** Applies every pending migration; safe to run from several processes at once (Kysely locks). */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  })
  const result: MigrationResultSet = await migrator.migrateToLatest()
  if (result.error) throw result.error
  return (result.results ?? []).map((r) => r.migrationName)
}
