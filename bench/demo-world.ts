import { PGlite } from '@electric-sql/pglite'
import { createPgConfig } from '@electric-sql/pglite/node-postgres'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { type Caller, callerOf } from '../packages/server/src/access/caller.ts'
import { resolvePrincipal } from '../packages/server/src/access/principal.ts'
import { type AppDeps, createAppDeps } from '../packages/server/src/app-deps.ts'
import { demoBundle } from '../packages/server/src/bundle/demo/demo-bundle.ts'
import { importBundle } from '../packages/server/src/bundle/import-bundle.ts'
import { SCOPES, type Scope } from '../packages/server/src/catalogue/scopes.ts'
import { loadConfig } from '../packages/server/src/config.ts'
import { extensions } from '../packages/server/src/db/connect.ts'
import type { Database } from '../packages/server/src/db/database.ts'
import { migrateToLatest } from '../packages/server/src/db/migrate.ts'
import { ManualClock } from '../packages/server/src/lib/clock.ts'

/** The demo workspace in an in-memory database, and a caller for one of its people. */
export interface DemoWorld {
  deps: AppDeps
  workspaceId: string
  ids: Record<string, string>
  /** The bearer tokens of the bundle's API keys and workspace tokens, by key. */
  tokens: Record<string, string>
  callerOf(key: string): Promise<Caller>
  close(): Promise<void>
}

/** The day the demo workspace is generated around, and the clock of its deps. */
export const DEMO_TODAY = '2026-11-22'

/**
 * Imports the demo bundle into a fresh in-memory PGlite: no files, nothing to clean up. `env`
 * adds settings (a `PUBLIC_URL` for a world that listens).
 */
export async function openDemoWorld(env: Record<string, string> = {}): Promise<DemoWorld> {
  const pglite = new PGlite({ extensions })
  await pglite.waitReady
  // As the service's own pool (db/connect.ts): dates stay `YYYY-MM-DD`, bigints are numbers.
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === 1082
        ? (value: string) => value
        : oid === 20
          ? Number
          : pg.types.getTypeParser(oid, format),
  } as pg.CustomTypesConfig
  const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1, types })
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  await migrateToLatest(db)
  const now = new Date(`${DEMO_TODAY}T12:00:00.000Z`)
  const outcome = await importBundle(db, demoBundle({ today: DEMO_TODAY }), { now })
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems.slice(0, 3)))
  const { workspace_id: workspaceId, ids } = outcome.result
  const deps = createAppDeps({
    db,
    engine: 'pglite',
    config: loadConfig({ LOG_LEVEL: 'silent', ...env }),
    secret: Buffer.alloc(32, 9),
    clock: new ManualClock(now),
  })
  const secrets = { ...outcome.result.api_keys, ...outcome.result.workspace_tokens }
  return {
    deps,
    workspaceId,
    ids,
    tokens: Object.fromEntries(Object.entries(secrets).map(([key, s]) => [key, s.token])),
    async callerOf(key: string) {
      const person = await db
        .selectFrom('people')
        .select(['id', 'role'])
        .where('id', '=', ids[key] ?? '')
        .executeTakeFirstOrThrow()
      const principal = await resolvePrincipal(db, {
        workspaceId,
        actorId: person.id,
        actorKind: 'person',
        role: person.role,
      })
      const scopes = new Set(Object.keys(SCOPES) as Scope[])
      return callerOf(principal, {
        id: 'bench',
        kind: 'api_key',
        clientId: null,
        scopes,
        madeWith: [],
        fence: null,
        validUntil: null,
      })
    },
    async close() {
      await db.destroy()
      await pglite.close()
    },
  }
}

/** Ids of visible resources of each summary kind, in a stable order. */
export async function idsByType(world: DemoWorld, caller: Caller, limit: number) {
  const db = world.deps.db
  const rows = await sql<{ id: string; type: string }>`
    select id, type from (
      select r.id, r.type, row_number() over (partition by r.type order by r.id) as n
      from resource_index r where r.workspace_id = ${world.workspaceId} and ${caller.visibility.row('r')}
    ) x where n <= ${limit}`.execute(db)
  const more = await sql<{ id: string; type: string }>`
    (select id, 'person' as type from people where workspace_id = ${world.workspaceId} order by id limit ${limit})
    union all (select id, 'team' from teams where workspace_id = ${world.workspaceId} order by id limit ${limit})
    union all (select id, 'key_result' from key_results where workspace_id = ${world.workspaceId} order by id limit ${limit})
    union all (select id, 'checkin' from checkins where workspace_id = ${world.workspaceId} order by id limit ${limit})
    union all (select id, 'activity' from activity where workspace_id = ${world.workspaceId} order by id limit ${limit})`.execute(
    db,
  )
  const byType = new Map<string, string[]>([['workspace', [world.workspaceId]]])
  for (const row of [...rows.rows, ...more.rows])
    byType.set(row.type, [...(byType.get(row.type) ?? []), row.id])
  return byType
}
