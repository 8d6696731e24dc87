import { sql } from 'kysely'
import type { Db } from '../db/database.ts'

/**
 * Sets the session (or, with `local`, the transaction) so that every value reads as the same text
 * on any PostgreSQL: times in UTC and ISO order, intervals and floats in their default forms, bytea
 * in hex. A move copies values as this text and compares tables by it, so the embedded engine and
 * a server of another version, time zone or locale agree on what equal means.
 */
export async function useCanonicalText(db: Db, local: boolean): Promise<void> {
  const scope = sql.raw(local ? 'local' : 'session')
  await sql`set ${scope} timezone = 'UTC'`.execute(db)
  await sql`set ${scope} datestyle = 'ISO, YMD'`.execute(db)
  await sql`set ${scope} intervalstyle = 'postgres'`.execute(db)
  await sql`set ${scope} extra_float_digits = 1`.execute(db)
  await sql`set ${scope} bytea_output = 'hex'`.execute(db)
}
