/**
 * The HTTP baseline for `GET /v1/projects`: a bare Fastify app over a `pg` pool that runs, per
 * request, a token lookup and then the very statement the service runs for the same principal's
 * first page, and answers the rows as JSON. No logging, hooks, schemas, rate limit or
 * presentation: what a minimal hand-written route costs on the same data (bench/README.md).
 *
 *   node bench/baseline-route.ts --database-url <url> --token <api key> --port <port>
 *
 * The statement is captured from the service's own query code (`listProjects`) at start-up, so
 * it cannot drift from what the service runs. It runs in a process of its own, as the service
 * does, so the load generator competes with both alike.
 */
import { parseArgs } from 'node:util'
import Fastify from 'fastify'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { authenticateToken } from '../packages/server/src/access/authenticate-token.ts'
import { resolvePrincipal } from '../packages/server/src/access/principal.ts'
import { hashSecret } from '../packages/server/src/access/secrets.ts'
import { visibilityFor } from '../packages/server/src/access/visibility.ts'
import type { Database } from '../packages/server/src/db/database.ts'
import { listProjects } from '../packages/server/src/graph/projects/projects.queries.ts'

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    token: { type: 'string' },
    port: { type: 'string' },
  },
})
const url = values['database-url'] ?? ''
const token = values.token ?? ''

// The same connection settings as the service's pool (db/connect.ts): ten connections, no JIT.
const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c jit=off' })
const statement = await capturedListStatement(pool, token)

const app = Fastify({ logger: false })
app.get('/projects', async (request, reply) => {
  const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? ''
  const found = await pool.query(
    'select id, workspace_id, person_id, scopes from tokens where secret_hash = $1 and revoked_at is null',
    [hashSecret(bearer)],
  )
  if (found.rowCount === 0) return reply.code(401).send({ error: 'invalid token' })
  const { rows } = await pool.query(statement.sql, [...statement.parameters])
  return { data: rows.slice(0, 20) }
})
await app.listen({ host: '127.0.0.1', port: Number(values.port) })
process.stdout.write('listening on\n')
process.on('SIGTERM', () => void app.close().then(() => pool.end()))

/** The compiled statement `listProjects` runs for the token's principal, first page of 20. */
async function capturedListStatement(pool: pg.Pool, token: string) {
  let captured: { sql: string; parameters: readonly unknown[] } | undefined
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      captured = { sql: event.query.sql, parameters: event.query.parameters }
    },
  })
  const identity = await authenticateToken(db, token, new Date())
  if (typeof identity === 'string') throw new Error(`the token is ${identity}`)
  const principal = await resolvePrincipal(db, identity.actor)
  await listProjects(db, visibilityFor(principal), {}, null, 20)
  if (!captured) throw new Error('listProjects ran no statement')
  return captured
}
