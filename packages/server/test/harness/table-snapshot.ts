import { sql } from 'kysely'
import type { Db } from '../../src/db/database.ts'

// The only state a dry run may change: its request counts against the token's read budget, and
// authenticating stamps the credential's last use (any request does both).
const SKIPPED_TABLES = new Set(['rate_limit_windows'])
const SKIPPED_COLUMNS = ['last_used_at']

/**
 * Every row of every table of the schema, as one string per table (rows in text form, sorted),
 * so a test can show a request changed nothing at all, byte for byte. Leaves out the rate-limit
 * counters and the `last_used_at` of credentials, which every authenticated request moves.
 */
export async function tableSnapshot(db: Db): Promise<Record<string, string>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`.execute(db)
  const snapshot: Record<string, string> = {}
  for (const { name } of tables.rows) {
    if (SKIPPED_TABLES.has(name)) continue
    const rows = await sql<{ row: string }>`
      select (to_jsonb(t) - ${sql.val(SKIPPED_COLUMNS)}::text[])::text as row
      from ${sql.table(name)} t`.execute(db)
    snapshot[name] = rows.rows
      .map((r) => r.row)
      .sort()
      .join('\n')
  }
  return snapshot
}
