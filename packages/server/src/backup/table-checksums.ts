import { sql } from 'kysely'
import type { Db } from '../db/database.ts'
import type { TableShape } from './table-catalogue.ts'

/** A table's rows counted and summed: equal on two databases when they hold the same rows. */
export interface TableSum {
  readonly rows: number
  readonly checksum: string
}

/**
 * Counts a table's rows and sums a digest of each row's text: every column (generated ones too,
 * as each engine computed them) in name order, read under canonical settings
 * (backup/canonical-text.ts). The sum of the rows' digests does not depend on the order rows are
 * read in, and is exact (numeric), so two databases agree exactly when they hold the same rows,
 * duplicates included, up to a collision of 60-bit digests.
 */
export async function tableSum(db: Db, table: TableShape): Promise<TableSum> {
  const row = sql.join(table.all.map((column) => sql.ref(column)))
  const result = await sql<{ rows: number; checksum: string }>`
    select count(*)::int as rows,
      coalesce(sum(('x' || substr(md5(row(${row})::text), 1, 15))::bit(60)::bigint), 0)::text
        as checksum
    from ${sql.table(table.name)}`.execute(db)
  const found = result.rows[0]
  return { rows: found?.rows ?? 0, checksum: found?.checksum ?? '0' }
}
