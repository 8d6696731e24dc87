import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import pg from 'pg'
import { inStatementSpan } from './statement-spans.ts'

// The comment that ends a statement to prepare: plain SQL, so a log or EXPLAIN shows it too.
const MARKER = '/* prepared */'

/**
 * Ends a statement that is prepared once per connection and then only bound and run: for hot
 * statements whose best plan does not depend on their values (a lookup by key, an insert), where
 * parsing and planning cost as much as running (bench/HISTORY.md, "Throughput").
 * Add it with `.modifyEnd(PREPARED)`; statements whose plan depends on the values are left alone.
 */
export const PREPARED = sql.raw(MARKER)

/** The statement name of a marked text (the same on every connection), or null when unmarked. */
export function preparedName(text: string): string | null {
  if (!text.endsWith(MARKER)) return null
  return `wg_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`
}

/**
 * A `pg` client that sends marked statements as named prepared statements: `pg` parses each name
 * once per connection and then only binds. The name is a hash of the text, so two texts never
 * share one. Every statement given as text and awaited (all of Kysely's) runs in a span of its own
 * (db/statement-spans.ts). Everything else goes through unchanged.
 */
export class PreparingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: the overloads of pg's query are forwarded as is
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config !== 'string' || callback !== undefined || typeof values === 'function')
      return super.query(config, values, callback)
    const name = preparedName(config)
    return inStatementSpan(config, () =>
      name === null ? super.query(config, values) : super.query({ name, text: config, values }),
    )
  }
}
