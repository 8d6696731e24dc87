import { type RawBuilder, sql } from 'kysely'
import type { Db } from '../db/database.ts'
import type { TableShape } from './table-catalogue.ts'

// A row as text: its position (ctid) and its columns as c0, c1, …
type TextRow = Record<string, string | null>

// PostgreSQL takes at most 65,535 parameters in a statement; a page stays well under it.
const MAX_PARAMETERS = 30_000
const MAX_ROWS = 1_000

/**
 * Copies every row of a table from `source` to `target`, page by page in the order rows are
 * stored (the source is a private copy nothing else writes, so that order is stable). Values
 * travel as their text (backup/canonical-text.ts), which the target parses by each column's type:
 * nothing is lost to a JavaScript number or date on the way. Returns the rows copied.
 */
export async function copyTable(source: Db, target: Db, table: TableShape): Promise<number> {
  const columns = table.copied
  const pageSize = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMETERS / columns.length)))
  const selected = sql.join(
    columns.map((column, i) => sql`${sql.ref(column)}::text as ${sql.id(`c${i}`)}`),
  )
  const into = sql`insert into ${sql.table(table.name)} (${sql.join(columns.map((c) => sql.id(c)))})`
  let after: string | null = null
  let copied = 0
  for (;;) {
    const where = after === null ? sql`` : sql`where ctid > ${after}::tid`
    const rows = await readPage(
      source,
      sql`select ctid::text as position, ${selected} from ${sql.table(table.name)}
        ${where} order by ctid limit ${pageSize}`,
    )
    if (rows.length === 0) return copied
    const values = rows.map(
      (row) => sql`(${sql.join(columns.map((_, i) => sql`${row[`c${i}`] ?? null}`))})`,
    )
    await sql`${into} values ${sql.join(values)}`.execute(target)
    copied += rows.length
    after = rows[rows.length - 1]?.position ?? null
    if (rows.length < pageSize) return copied
  }
}

async function readPage(source: Db, query: RawBuilder<unknown>): Promise<TextRow[]> {
  return (await query.execute(source)).rows as TextRow[]
}
