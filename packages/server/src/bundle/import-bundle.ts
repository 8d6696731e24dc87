import { type Insertable, type Kysely, sql } from 'kysely'
import { emailKey, emailPasswordHashes } from '../access/email-password-hashes.ts'
import { syncResourceIndex } from '../access/resource-index.ts'
import type { Database } from '../db/database.ts'
import { defineBuiltInKinds } from '../kinds/built-in-kinds.ts'
import { importSessionName } from '../lib/import-progress-name.ts'
import { hashPassword, type PasswordCost } from '../lib/password.ts'
import { type BundlePlan, type IdMaker, type ImportSecrets, planImport } from './bundle-plan.ts'
import type { Problem } from './schema-problems.ts'
import { validateBundle } from './validate-bundle.ts'

/** What a successful import reports (docs/bundles.md, `workgraph import --json`). */
export interface ImportResult extends ImportSecrets {
  workspace_id: string
  ids: Record<string, string>
}

/** The outcome of an import: the result, or every problem (and then nothing was written). */
export type ImportOutcome = { ok: true; result: ImportResult } | { ok: false; problems: Problem[] }

/** Options of importBundle. */
export interface ImportOptions {
  /** The import time, used where the bundle gives none. */
  now?: Date
  /** Called as rows are written: done and total row counts. */
  onProgress?: (done: number, total: number) => void
  /** Called as each phase starts: `validating`, `writing tasks`, `indexing for search`, …. */
  onPhase?: (phase: string) => void
  /** Ids for the bundle's keys; random by default. Tests import one world twice with equal ids. */
  makeId?: IdMaker
  /** The work factor of the passwords it hashes; `PASSWORD_COST` unless a test lowers it. */
  passwordCost?: PasswordCost
  /** Called in the import's transaction just before it commits: throwing rolls it all back. */
  beforeCommit?: () => void | Promise<void>
}

// Foreign keys decide this order.
const TABLE_ORDER: (keyof Database)[] = [
  'workspaces',
  'people',
  'teams',
  'team_members',
  'integrations',
  'projects',
  'project_members',
  'canvases',
  'canvas_shares',
  'tasks',
  'canvas_links',
  'objectives',
  'key_results',
  'checkins',
  'comments',
  'activity',
  'tokens',
  'oauth_clients',
]

// Postgres allows 65,535 bind parameters per statement; stay well below.
const PARAMETERS_PER_BATCH = 30_000

/**
 * Imports a workspace bundle in one transaction: validates all of it first and writes nothing
 * unless it is entirely valid. Creates a new workspace each time.
 */
export async function importBundle(
  db: Kysely<Database>,
  input: unknown,
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  // An import may run without an app (the CLI, tests): the kinds' index rules must be known.
  defineBuiltInKinds()
  const prepared = prepareImport(input, options)
  if (!prepared.ok) return prepared
  return { ok: true, result: await writeImport(db, prepared.plan, options) }
}

/** A bundle turned into rows, or every problem it has. */
export type PreparedImport = { ok: true; plan: BundlePlan } | { ok: false; problems: Problem[] }

/**
 * Validates a bundle and plans its rows. The plan holds everything the write needs, so a caller
 * that keeps no reference to the parsed bundle lets it be collected before the write starts
 * (a large bundle is a large share of the heap: bench/HISTORY.md, "Memory").
 */
export function prepareImport(input: unknown, options: ImportOptions = {}): PreparedImport {
  options.onPhase?.('validating')
  const validation = validateBundle(input)
  if (!validation.ok) return validation
  const plan = planImport(
    validation.bundle,
    validation.keys,
    options.now ?? new Date(),
    options.makeId,
  )
  return { ok: true, plan }
}

/**
 * Writes a planned import in one transaction. Each table's rows are dropped from the plan once
 * written, so the heap shrinks as the import goes; the plan is spent afterwards.
 */
export async function writeImport(
  db: Kysely<Database>,
  plan: BundlePlan,
  options: ImportOptions = {},
): Promise<ImportResult> {
  await givePasswords(db, plan, options)
  const changes = numberChanges(plan.tables.activity ?? [])
  const total = TABLE_ORDER.reduce((sum, table) => sum + (plan.tables[table]?.length ?? 0), 0)
  let done = 0
  await db.transaction().execute(async (trx) => {
    // An import is one long transaction by design: the bounds of a request's statements are not
    // its bounds (docs/configuration.md, "Bounded waits").
    await sql`set local statement_timeout = 0`.execute(trx)
    await sql`set local lock_timeout = 0`.execute(trx)
    await sql`set local idle_in_transaction_session_timeout = 0`.execute(trx)
    const progress = sessionProgress(trx, total)
    await progress.report(0)
    for (const table of TABLE_ORDER) {
      const rows = (plan.tables[table] ?? []) as Insertable<Database[typeof table]>[]
      delete plan.tables[table]
      const first = rows[0]
      if (!first) continue
      options.onPhase?.(`writing ${table.replaceAll('_', ' ')}`)
      const batch = Math.max(1, Math.floor(PARAMETERS_PER_BATCH / Object.keys(first).length))
      for (let i = 0; i < rows.length; i += batch) {
        const slice = rows.slice(i, i + batch).map((row) => serialize(table, row))
        await trx
          .insertInto(table)
          .values(slice as never)
          .execute()
        done += slice.length
        options.onProgress?.(done, total)
        await progress.report(done)
      }
    }
    await progress.report(done, true)
    await trx
      .insertInto('change_positions')
      .values({ workspace_id: plan.workspaceId, last: changes })
      .execute()
    options.onPhase?.('indexing for search')
    await syncResourceIndex(trx, plan.workspaceId, { all: true })
    await options.beforeCommit?.()
  })
  return { workspace_id: plan.workspaceId, ids: plan.ids, ...plan.secrets }
}

/**
 * Sets the password hash of each imported person the bundle gives a password. An email has one
 * password across the server (web/email-passwords.ts): a person whose email already signs in
 * elsewhere takes that password, and the bundle's is not used, so that a bundle can never change
 * how someone signs in to another workspace. Only new emails are hashed.
 */
async function givePasswords(db: Kysely<Database>, plan: BundlePlan, options: ImportOptions) {
  const people = (plan.tables.people ?? []).filter((person) => plan.passwords.has(person.id))
  if (people.length === 0) return
  const existing = await emailPasswordHashes(
    db,
    people.map((person) => person.email),
  )
  options.onPhase?.('hashing passwords')
  await Promise.all(
    people.map(async (person) => {
      person.password_hash =
        existing.get(emailKey(person.email)) ??
        (await hashPassword(plan.passwords.get(person.id) as string, options.passwordCost))
    }),
  )
}

/**
 * Gives the imported activity its change-feed positions (docs/changes.md) in the order it
 * happened, as the migration numbered existing entries; returns the last one. The workspace is
 * new, so no reader can see a position before the import commits.
 */
function numberChanges(rows: Insertable<Database['activity']>[]): number {
  const time = (row: Insertable<Database['activity']>) => new Date(row.created_at ?? 0).getTime()
  const ordered = [...rows].sort(
    (a, b) => time(a) - time(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  )
  ordered.forEach((row, index) => {
    row.position = index + 1
  })
  return ordered.length
}

// JSON columns go over the wire as text.
function serialize(table: keyof Database, row: object): object {
  if (table === 'activity')
    return { ...row, changes: JSON.stringify((row as { changes?: unknown }).changes ?? {}) }
  return row
}

// Tells the import's progress through its session's name, at most once a second (and at the
// end), so that a server's /metrics can read it while the transaction is open
// (lib/import-progress-name.ts). Local to the transaction: the name reverts when it ends.
function sessionProgress(trx: Kysely<Database>, total: number) {
  let last = Number.NEGATIVE_INFINITY
  return {
    async report(done: number, final = false) {
      if (!final && performance.now() - last < 1000) return
      last = performance.now()
      await sql`select set_config('application_name', ${importSessionName(done, total)}, true)`.execute(
        trx,
      )
    },
  }
}
