/**
 * Lists the SQL statements one request runs, with each one's time: the real app over a `pg`
 * pool whose Kysely logs every query. It found that a read ran three statements and a task
 * creation about twenty (bench/README.md, "Statements per request").
 *
 *   node bench/statement-trace.ts --database-url <url> --token <api key> [--repeat 3]
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

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    token: { type: 'string' },
    repeat: { type: 'string', default: '3' },
  },
})
const url = values['database-url'] ?? ''
let trace: { ms: number; sql: string }[] = []
const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c jit=off' })
const db = new Kysely<Database>({
  dialect: new PostgresDialect({ pool }),
  log: (event) => {
    trace.push({ ms: event.queryDurationMillis, sql: event.query.sql.replace(/\s+/g, ' ') })
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
  for (const { ms, sql } of trace)
    console.log(`  ${ms.toFixed(2).padStart(7)} ms  ${sql.slice(0, 150)}`)
}
await app.close()
await db.destroy()
