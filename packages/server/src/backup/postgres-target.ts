import { sql } from 'kysely'
import { type DatabaseHandle, openDatabase } from '../db/connect.ts'
import type { Db } from '../db/database.ts'
import { BackupFailure } from './backup-failure.ts'

/** A PostgreSQL URL in words for messages: its host, port and database, never its password. */
export function describePostgres(url: string): string {
  const parsed = new URL(url)
  return `PostgreSQL at ${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`
}

/**
 * Opens a PostgreSQL database for a restore or a move and proves it answers; one that does not is
 * a failure naming it, before anything was changed. Its statements have no time limits: copying
 * and checking a large workspace rightly takes longer than a request.
 */
export async function connectTarget(url: string): Promise<DatabaseHandle> {
  const handle = await openDatabase({
    kind: 'postgres',
    url,
    poolSize: 2,
    waits: {
      statementTimeoutMs: 0,
      lockTimeoutMs: 0,
      idleInTransactionTimeoutMs: 0,
      poolWaitMs: 30_000,
    },
  })
  try {
    await sql`select 1`.execute(handle.db)
    return handle
  } catch (error) {
    await handle.close()
    throw new BackupFailure(
      `Cannot use ${describePostgres(url)}: ${(error as Error).message}. Nothing was changed.`,
    )
  }
}

/** The tables, views and sequences of a database outside PostgreSQL's own schemas, by name. */
export async function userRelations(db: Db): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    select n.nspname || '.' || c.relname as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
      and n.nspname not in ('pg_catalog', 'information_schema')
      and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
    order by 1`.execute(db)
  return rows.rows.map((row) => row.name)
}
