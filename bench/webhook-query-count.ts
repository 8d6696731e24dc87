/**
 * Preloaded into a bench worker (`node --import`): counts the statements the process sends, by
 * their opening words, and writes the counts to WG_BENCH_QUERY_LOG as JSON when it exits.
 * pg_stat_statements needs a server restart to load, which a shared server cannot have.
 */
import { writeFileSync } from 'node:fs'
import pg from 'pg'

const target = process.env.WG_BENCH_QUERY_LOG
const counts = new Map<string, number>()
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown
pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
  const [first] = args
  const text = typeof first === 'string' ? first : (first as { text?: string })?.text
  if (typeof text === 'string') {
    // Enough of the statement to tell one query of the dispatcher from another.
    const shape = text.replace(/\s+/g, ' ').trim().slice(0, 90)
    counts.set(shape, (counts.get(shape) ?? 0) + 1)
  }
  return query.apply(this, args)
} as typeof pg.Client.prototype.query

process.on('exit', () => {
  if (target) writeFileSync(target, JSON.stringify(Object.fromEntries(counts)))
})
