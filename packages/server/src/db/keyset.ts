import { type RawBuilder, sql } from 'kysely'
import type { CursorPosition } from '../lib/cursor.ts'

/** Rows after a keyset position in newest-first order: `(created_at, id) < (…)`. */
export function newestFirstAfter(alias: string, after: CursorPosition | null): RawBuilder<boolean> {
  if (!after) return sql<boolean>`true`
  return sql<boolean>`(${sql.ref(`${alias}.created_at`)}, ${sql.ref(`${alias}.id`)}) < (${after[0]}::timestamptz, ${after[1]}::text)`
}

/** Rows after a keyset position in oldest-first order: `(created_at, id) > (…)`. */
export function oldestFirstAfter(alias: string, after: CursorPosition | null): RawBuilder<boolean> {
  if (!after) return sql<boolean>`true`
  return sql<boolean>`(${sql.ref(`${alias}.created_at`)}, ${sql.ref(`${alias}.id`)}) > (${after[0]}::timestamptz, ${after[1]}::text)`
}

/** The keyset position of a row in lists ordered by creation time. */
export function createdPosition(row: { created_at: Date; id: string }): CursorPosition {
  return [row.created_at.toISOString(), row.id]
}
