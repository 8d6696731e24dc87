/**
 * Failures where the database was there but could not serve the request in time or at all: a
 * statement past its timeout, a lock not granted in time, no connection free in the pool, a full
 * disk, too many connections. Each rolled its transaction back, so the request changed nothing,
 * and the same request may succeed a little later (docs/configuration.md, "Bounded waits").
 */
export type DatabasePressure =
  | 'statement_timeout'
  | 'lock_timeout'
  | 'pool_wait'
  | 'disk_full'
  | 'overloaded'

/** What kind of pressure an error reports, or null when it reports none. */
export function databasePressure(error: unknown): DatabasePressure | null {
  if (typeof error !== 'object' || error === null) return null
  const { code, message } = error as { code?: unknown; message?: unknown }
  switch (code) {
    case '57014':
      return 'statement_timeout'
    case '55P03':
      return 'lock_timeout'
    case '53100':
      return 'disk_full'
    case '53000':
    case '53200':
    case '53300':
    case '40P01':
    case '40001':
      return 'overloaded'
  }
  if (typeof message !== 'string') return null
  if (message.includes('timeout exceeded when trying to connect')) return 'pool_wait'
  // The embedded engine reports a full disk by its message alone.
  if (/No space left on device|could not extend file/i.test(message)) return 'disk_full'
  return null
}

/** What each kind is answered with: a sentence, and how many seconds to wait. */
export const PRESSURE_ANSWERS: Record<DatabasePressure, { message: string; retryAfter: number }> = {
  statement_timeout: {
    message: 'The database took too long to answer; nothing was changed. Retry shortly.',
    retryAfter: 2,
  },
  lock_timeout: {
    message:
      'What this request needs is locked by other work in the database; nothing was changed. Retry shortly.',
    retryAfter: 2,
  },
  pool_wait: {
    message: 'The server is busy: no database connection came free in time. Retry shortly.',
    retryAfter: 1,
  },
  disk_full: {
    message: "The database's disk is full; nothing was written. Retry once space has been freed.",
    retryAfter: 30,
  },
  overloaded: {
    message: 'The database is overloaded; nothing was changed. Retry shortly.',
    retryAfter: 2,
  },
}
