import { statfsSync } from 'node:fs'
import { sql } from 'kysely'
import { ProblemError } from '../api/problem-catalogue.ts'
import type { AppDeps } from '../app-deps.ts'

/** How long `/readyz` waits for the database before it says not ready. */
export const READINESS_WAIT_MS = 900
// Free space below which the embedded database is about to fail its writes.
const MIN_FREE_BYTES = 16 * 1024 * 1024

/**
 * Why the server cannot take traffic now, thrown as a 503 problem; nothing when it can. Ready
 * means: not draining; the database's disk has room (the data folder's free space, embedded; no
 * write recently failed for want of it, PostgreSQL); and the database takes a simple write (a
 * transaction id is assigned, which a read-only or recovering database refuses) within
 * READINESS_WAIT_MS, however busy its pool or locked its tables. So it answers within a second,
 * whatever the database is doing.
 */
export async function checkReadiness(deps: AppDeps): Promise<void> {
  if (deps.lifecycle.draining) throw notReady('The server is shutting down.', 1)
  if (!diskHasRoom(deps))
    throw notReady("The database's disk is full; writes fail until space is freed.", 30)
  const probe = deps.db.transaction().execute(async (trx) => {
    await sql`set local statement_timeout = ${sql.lit(READINESS_WAIT_MS)}`.execute(trx)
    await sql`set local lock_timeout = ${sql.lit(READINESS_WAIT_MS)}`.execute(trx)
    await sql`select txid_current()`.execute(trx)
  })
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), READINESS_WAIT_MS)
  })
  try {
    const outcome = await Promise.race([probe.then(() => 'ok' as const), late])
    if (outcome === 'late') {
      // The probe goes on until the pool or the database lets it go; its end is of no interest.
      probe.catch(() => {})
      throw notReady('The database did not take a write within a second.', 2)
    }
  } catch (error) {
    if (error instanceof ProblemError) throw error
    deps.health.observe(error)
    throw notReady('The database cannot take a write now.', 2)
  } finally {
    clearTimeout(timer)
  }
}

// The embedded database's disk is this machine's, and its free space says; PostgreSQL's is
// known only by a write that failed for want of it (db/database-health.ts).
function diskHasRoom(deps: AppDeps): boolean {
  if (deps.config.databaseUrl) return !deps.health.diskFull
  try {
    const disk = statfsSync(deps.config.dataDir)
    return disk.bavail * disk.bsize >= MIN_FREE_BYTES
  } catch {
    return !deps.health.diskFull
  }
}

function notReady(message: string, retryAfter: number): ProblemError {
  return new ProblemError('service_unavailable', message, {
    headers: { 'retry-after': String(retryAfter) },
  })
}
