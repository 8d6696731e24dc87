import { ProblemError } from '../../api/problem-catalogue.ts'

/** How long the feed serves a change (docs/changes.md). */
export const CHANGE_RETENTION_DAYS = 30

/** The moment before which changes have left the feed's window. */
export function retentionCutoff(now: Date): Date {
  return new Date(now.getTime() - CHANGE_RETENTION_DAYS * 24 * 60 * 60 * 1000)
}

/** The 410 of a cursor that changes after it have already left the window. */
export function cursorExpired(): ProblemError {
  return new ProblemError(
    'cursor_expired',
    `Changes after this cursor are older than the ${CHANGE_RETENTION_DAYS} days the feed keeps. ` +
      'Resynchronize: re-read the lists you keep, then follow the feed from a fresh cursor.',
    { errors: [{ path: '/cursor', message: 'is older than the retained changes' }] },
  )
}
