import type { FastifyInstance, InjectOptions } from 'fastify'
import type { KyselyPlugin } from 'kysely'
import type { Logger } from 'pino'
import { buildApp } from '../../src/app.ts'
import { type AppDeps, createAppDeps } from '../../src/app-deps.ts'
import { loadConfig } from '../../src/config.ts'
import { type Clock, ManualClock } from '../../src/lib/clock.ts'
import type { Tracing } from '../../src/telemetry/tracing.ts'
import { openTestDatabase, type TestDatabase } from './test-database.ts'

/** The service secret of tests (fixed, so cursors made in one test app work in another). */
export const TEST_SECRET = Buffer.alloc(32, 7)

const UNLIMITED = {
  RATE_LIMIT_READS_PER_MINUTE: '10000000',
  RATE_LIMIT_WRITES_PER_MINUTE: '10000000',
}

/** A running app on a database of its own, for one test file. */
export interface TestApp {
  db: TestDatabase
  app: FastifyInstance
  deps: AppDeps
  clock: ManualClock
  close(): Promise<void>
}

/** Starts the real Fastify app (no mocks) on a fresh database; close it in `after`. */
export async function startTestApp(
  options: {
    env?: NodeJS.ProcessEnv
    clock?: Clock
    logger?: Logger
    /** Watches what the app sends to the database (a `StatementLog`); changes nothing. */
    plugin?: KyselyPlugin
    /** The database to use instead of a fresh one: a second app on the same data. */
    database?: TestDatabase
    /** Traces, started by the test (telemetry/tracing.ts). */
    tracing?: Tracing
  } = {},
): Promise<TestApp> {
  const db = options.database ?? (await openTestDatabase())
  const clock = new ManualClock(new Date())
  const deps = createAppDeps({
    db: options.plugin ? db.db.withPlugin(options.plugin) : db.db,
    engine: db.engine,
    pool: db.pool,
    // Rate limits are tested on their own; elsewhere they would only couple tests to counts.
    config: loadConfig({ LOG_LEVEL: 'silent', ...UNLIMITED, ...options.env }),
    secret: TEST_SECRET,
    clock: options.clock ?? clock,
  })
  const app = await buildApp(deps, {
    ...(options.logger && { logger: options.logger }),
    tracing: options.tracing,
  })
  return {
    db,
    app,
    deps,
    clock,
    async close() {
      await app.close()
      if (!options.database) await db.close()
    },
  }
}

/** A response, parsed. */
export interface Reply {
  status: number
  headers: Record<string, string | string[] | number | undefined>
  body: string
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
  json: any
}

/** Sends requests as one token (or none). */
export function client(app: FastifyInstance, token?: string) {
  const send = async (options: InjectOptions): Promise<Reply> => {
    const headers = {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(options.headers as object),
    }
    const response = await app.inject({ ...options, headers })
    let json: unknown
    try {
      json = response.body ? JSON.parse(response.body) : undefined
    } catch {
      json = undefined
    }
    return { status: response.statusCode, headers: response.headers, body: response.body, json }
  }
  return {
    send,
    get: (url: string, headers: Record<string, string> = {}) =>
      send({ method: 'GET', url, headers }),
    post: (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
      send({
        method: 'POST',
        url,
        headers,
        ...(payload === undefined ? {} : { payload: payload as object }),
      }),
    patch: (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
      send({
        method: 'PATCH',
        url,
        headers,
        ...(payload === undefined ? {} : { payload: payload as object }),
      }),
    delete: (url: string, headers: Record<string, string> = {}) =>
      send({ method: 'DELETE', url, headers }),
  }
}

/** Every page of a list, following next_cursor; asserts that no page is short before the end. */
export async function allPages(
  api: ReturnType<typeof client>,
  url: string,
  limit: number,
  // biome-ignore lint/suspicious/noExplicitAny: pages hold arbitrary records
): Promise<any[]> {
  // biome-ignore lint/suspicious/noExplicitAny: pages hold arbitrary records
  const items: any[] = []
  let cursor: string | null = null
  const join = url.includes('?') ? '&' : '?'
  for (let page = 0; page < 10_000; page++) {
    const reply: Reply = await api.get(
      `${url}${join}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    )
    if (reply.status !== 200)
      throw new Error(`page ${page} of ${url}: ${reply.status} ${reply.body}`)
    const data = reply.json.data ?? reply.json.results
    cursor = reply.json.next_cursor
    if (cursor !== null && data.length !== limit)
      throw new Error(`short page (${data.length} < ${limit}) with a next_cursor`)
    items.push(...data)
    if (cursor === null) return items
  }
  throw new Error('too many pages')
}
