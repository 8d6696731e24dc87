import { sql } from 'kysely'
import type { Db } from '../../src/db/database.ts'

// Every table a write may touch.
const TABLES = [
  'tasks',
  'comments',
  'checkins',
  'key_results',
  'objectives',
  'canvases',
  'canvas_links',
  'resource_index',
  'activity',
  'change_positions',
  'audit_log',
  'events',
  'idempotency_keys',
  'tokens',
] as const

/**
 * A fingerprint of the content of every table a write may touch (and of `extra` tables): row
 * counts and a hash of the rows, so that a refused request is shown to have changed nothing at
 * all (not merely no count).
 */
export async function contentState(
  db: Db,
  extra: readonly string[] = [],
): Promise<Record<string, string>> {
  const state: Record<string, string> = {}
  for (const table of [...TABLES, ...extra]) {
    const row = await sql<{ n: number; h: string | null }>`
      select count(*)::int as n, md5(string_agg(t::text, '|' order by t::text)) as h
      from ${sql.table(table)} t`
      .execute(db)
      .then((result) => result.rows[0])
    state[table] = `${row?.n}:${row?.h}`
  }
  return state
}
