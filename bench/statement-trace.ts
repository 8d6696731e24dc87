/**
 * Lists the SQL statements one request runs, with each one's time: the real app over a `pg`
 * pool whose Kysely logs every query. It found that a read ran three statements and a task
 * creation about twenty (bench/HISTORY.md, "Statements per request").
 *
 *   node bench/statement-trace.ts --database-url <url> --token <api key> [--repeat 3] [--explain]
 *
 * `--explain` also reports each read statement's planning and execution time from
 * `EXPLAIN (ANALYZE)`, the median of 5 (statements that write are not explained).
 *
 * The requests are those the bench loads: the project list, a search and a task creation with
 * a fresh Idempotency-Key. The last of `--repeat` runs of each is reported (the first warms
 * caches such as the principal cache).
 */
import { parseArgs } from 'node:util'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { buildApp } from '../packages/server/src/app.ts'
import { createAppDeps } from '../packages/server/src/app-deps.ts'
import { loadConfig } from '../packages/server/src/config.ts'
import type { Database } from '../packages/server/src/db/database.ts'
import { PreparingClient } from '../packages/server/src/db/prepared-statements.ts'

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    token: { type: 'string' },
    repeat: { type: 'string', default: '3' },
    explain: { type: 'boolean', default: false },
  },
})
const url = values['database-url'] ?? ''
let trace: { ms: number; sql: string; parameters: readonly unknown[] }[] = []
// As the service connects (db/connect.ts): marked statements are prepared once per connection.
const pool = new pg.Pool({
  connectionString: url,
  max: 10,
  options: '-c jit=off',
  Client: PreparingClient,
})
const db = new Kysely<Database>({
  dialect: new PostgresDialect({ pool }),
  log: (event) => {
    trace.push({
      ms: event.queryDurationMillis,
      sql: event.query.sql,
      parameters: event.query.parameters,
    })
  },
})
const config = loadConfig(
  { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: url },
  { databaseUrl: url },
)
const deps = createAppDeps({
  db,
  engine: 'postgres',
  config,
  secret: Buffer.from(process.env.WORKGRAPH_SECRET ?? '', 'base64'),
})
const app = await buildApp(deps)
const authorization = `Bearer ${values.token}`
const requests = [
  { method: 'GET' as const, url: '/v1/projects' },
  { method: 'POST' as const, url: '/v1/search', payload: { query: 'checkout release' } },
  {
    method: 'POST' as const,
    url: '/v1/tasks',
    payload: { title: 'Traced task', description: 'Created by bench/statement-trace.ts.' },
    idempotent: true,
  },
]
let sent = 0
for (const { idempotent, ...request } of requests) {
  for (let run = 0; run < Number(values.repeat); run++) {
    trace = []
    const headers: Record<string, string> = { authorization }
    if (idempotent) headers['idempotency-key'] = `trace-${process.pid}-${++sent}`
    const response = await app.inject({ ...request, headers })
    if (response.statusCode >= 300) throw new Error(`${request.url}: ${response.body}`)
  }
  const total = trace.reduce((sum, { ms }) => sum + ms, 0)
  console.log(
    `\n${request.method} ${request.url}: ${trace.length} statements, ${total.toFixed(2)} ms`,
  )
  for (const { ms, sql, parameters } of trace) {
    const explained = values.explain ? await explain(sql, parameters) : ''
    console.log(
      `  ${ms.toFixed(2).padStart(7)} ms ${explained} ${sql.replace(/\s+/g, ' ').slice(0, 120)}`,
    )
  }
}
await app.close()
await db.destroy()

/** Planning and execution time of a read statement, the median of 5 runs of EXPLAIN ANALYZE. */
async function explain(sql: string, parameters: readonly unknown[]): Promise<string> {
  if (!/^\s*(select|with\s+(?!.*\b(insert|update|delete)\b))/i.test(sql)) return ''
  const runs: { planning: number; execution: number }[] = []
  for (let run = 0; run < 5; run++) {
    const { rows } = await pool.query(`explain (analyze, summary) ${sql}`, [...parameters])
    const text = rows.map((row) => row['QUERY PLAN']).join('\n')
    const time = (label: string) => Number(new RegExp(`${label} Time: ([\\d.]+)`).exec(text)?.[1])
    runs.push({ planning: time('Planning'), execution: time('Execution') })
  }
  const median = (key: 'planning' | 'execution') => runs.map((r) => r[key]).sort((a, b) => a - b)[2]
  return `(plan ${median('planning')?.toFixed(2)}, run ${median('execution')?.toFixed(2)})`
}
