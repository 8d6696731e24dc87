import { sql, type Transaction } from 'kysely'
import type { Database, Db } from '../db/database.ts'

// The advisory lock every creation of a workspace by init or the first-run page takes: a number
// of its own, so that nothing else waits on it.
const SETUP_LOCK = 0x77_67_73_65_74_75_70n

/**
 * Runs `work` in a transaction that holds the setup lock until it ends, so that two creations at
 * once (two submissions of the first-run form, two `init`s) run one after the other, and the
 * second sees the first's workspace (`hasWorkspace`) once the first has committed.
 */
export async function withSetupLock<T>(
  db: Db,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${String(SETUP_LOCK)}::bigint)`.execute(trx)
    return work(trx)
  })
}

/** How many workspaces the database holds: none before the first-run page or `init`. */
export async function workspaceCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('workspaces')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Whether the database holds a workspace (one row read, however many there are). */
export async function hasWorkspace(db: Db): Promise<boolean> {
  const row = await db.selectFrom('workspaces').select('id').limit(1).executeTakeFirst()
  return row !== undefined
}
