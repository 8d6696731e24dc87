import { sql } from 'kysely'
import { Gauge, type Registry } from 'prom-client'
import type { Db } from '../db/database.ts'
import { IMPORT_SESSION_PREFIX, importProgressOf } from '../lib/import-progress-name.ts'
import { sharedRead } from './shared-read.ts'

/**
 * Imports running now against this database and their rows, read from the sessions that name
 * themselves after their progress (lib/import-progress-name.ts): an import is a process of its
 * own (`workgraph import`), which only the database sees, so every instance reports the same.
 * The embedded database admits no server beside an import, so there it reports none.
 */
export function registerImportGauges(db: Db, registry: Registry): void {
  const running = sharedRead(async () => {
    const { rows } = await sql<{ name: string }>`
      select application_name as name from pg_stat_activity
      where application_name like ${`${IMPORT_SESSION_PREFIX}%`}`.execute(db)
    return rows.flatMap((row) => importProgressOf(row.name) ?? [])
  })
  new Gauge({
    name: 'workgraph_imports_running',
    help: 'Bundle imports writing to this database now.',
    registers: [registry],
    async collect() {
      this.set((await running()).length)
    },
  })
  new Gauge({
    name: 'workgraph_import_rows',
    help: 'Rows of the imports running now: written so far (of="written") and in all (of="total").',
    labelNames: ['of'] as const,
    registers: [registry],
    async collect() {
      const imports = await running()
      this.set(
        { of: 'written' },
        imports.reduce((sum, i) => sum + i.done, 0),
      )
      this.set(
        { of: 'total' },
        imports.reduce((sum, i) => sum + i.total, 0),
      )
    },
  })
}
