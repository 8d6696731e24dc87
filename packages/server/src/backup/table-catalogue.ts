import { sql } from 'kysely'
import type { Db } from '../db/database.ts'

/** A table as a move sees it: the columns it copies, and every column its checksum reads. */
export interface TableShape {
  readonly name: string
  /** Stored columns; generated ones (search vectors, principal ids) each engine computes itself. */
  readonly copied: readonly string[]
  /** Every column, in name order, so that both sides read them alike. */
  readonly all: readonly string[]
}

// The migrator's own bookkeeping: each database keeps the record of its own migrations.
const MIGRATOR_TABLES = ['kysely_migration', 'kysely_migration_lock']

/** Workgraph's tables in a database (schema public), by name, without the migrator's. */
export async function tablesOf(db: Db): Promise<TableShape[]> {
  const rows = await sql<{ table: string; column: string; generated: boolean }>`
    select c.relname as table, a.attname as column, a.attgenerated <> '' as generated
    from pg_class c
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
    order by c.relname collate "C", a.attnum`.execute(db)
  const tables = new Map<string, { copied: string[]; all: string[] }>()
  for (const row of rows.rows) {
    if (MIGRATOR_TABLES.includes(row.table)) continue
    const table = tables.get(row.table) ?? { copied: [], all: [] }
    tables.set(row.table, table)
    table.all.push(row.column)
    if (!row.generated) table.copied.push(row.column)
  }
  return [...tables].map(([name, columns]) => ({
    name,
    copied: columns.copied,
    all: [...columns.all].sort(),
  }))
}

/** The sequences of schema public (identity columns' included), by name. */
export async function sequencesOf(db: Db): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    select relname as name from pg_class
    where relnamespace = 'public'::regnamespace and relkind = 'S'
    order by relname collate "C"`.execute(db)
  return rows.rows.map((row) => row.name)
}

/** The migrations a database has applied, by name. */
export async function migrationsOf(db: Db): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    select name from kysely_migration order by name collate "C"`.execute(db)
  return rows.rows.map((row) => row.name)
}

/** The foreign keys of schema public that are checked at once (all of Workgraph's). */
export async function immediateForeignKeys(db: Db): Promise<{ table: string; name: string }[]> {
  const rows = await sql<{ table: string; name: string }>`
    select c.relname as table, k.conname as name
    from pg_constraint k join pg_class c on c.oid = k.conrelid
    where k.contype = 'f' and k.connamespace = 'public'::regnamespace and not k.condeferrable
    order by 1, 2`.execute(db)
  return rows.rows
}
