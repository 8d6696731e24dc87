import { sql } from 'kysely'
import type { Db } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { BackupFailure } from './backup-failure.ts'
import { useCanonicalText } from './canonical-text.ts'
import { checkCredentials } from './credential-check.ts'
import { holdsDatabase } from './embedded-folder.ts'
import { openSourceCopy } from './embedded-source.ts'
import { checkRebuiltIndex } from './index-check.ts'
import { failuresOf, type MoveReport, type TableComparison } from './move-report.ts'
import { connectTarget, describePostgres, userRelations } from './postgres-target.ts'
import {
  immediateForeignKeys,
  migrationsOf,
  sequencesOf,
  type TableShape,
  tablesOf,
} from './table-catalogue.ts'
import { tableSum } from './table-checksums.ts'
import { copyTable } from './table-copy.ts'

/** What a move tells of its progress, for a terminal. */
export type MoveStep = (what: string) => void

// Thrown inside the copy's transaction to roll it back, carrying the report.
class Unverified extends Error {
  readonly report: MoveReport
  constructor(report: MoveReport) {
    super('the copy did not verify')
    this.report = report
  }
}

/**
 * Copies the embedded database in `dataDir` into the empty PostgreSQL database at `url`, then
 * verifies the copy, and commits it only when every check passes (docs/operations.md, "Moving to
 * PostgreSQL"): the target is migrated by this version; every table's rows are copied in one
 * transaction, its foreign keys checked once at the end; the sequences are set; then row counts
 * and checksums per table, the search index compiled again from the moved rows, every API key,
 * password and (given `secret`) webhook signing secret are compared with the source. The folder
 * is only read (a private copy is opened), and it must not be held by a server.
 */
export async function moveToPostgres(
  dataDir: string,
  url: string,
  secret: Buffer | undefined,
  step: MoveStep = () => {},
): Promise<MoveReport> {
  if (!holdsDatabase(dataDir))
    throw new BackupFailure(
      `There is no embedded database in ${dataDir}, so there is nothing to move.`,
    )
  step(`Opening a copy of the embedded database in ${dataDir}`)
  const source = await openSourceCopy(dataDir)
  try {
    const target = await connectTarget(url)
    try {
      await refuseUsedTarget(target.db, url)
      step(`Migrating ${describePostgres(url)}`)
      await migrateToLatest(target.db).catch((error: unknown) => {
        throw new BackupFailure(
          `Cannot make Workgraph's schema in ${describePostgres(url)}: ${(error as Error).message}. ` +
            'Nothing was moved; the user of the URL must be allowed to create tables (the owner of the database is).',
        )
      })
      const tables = await sameShapes(source.handle.db, target.db)
      await useCanonicalText(source.handle.db, false)
      const base = { source: `embedded database in ${dataDir}`, target: describePostgres(url) }
      try {
        return await target.db.transaction().execute(async (trx) => {
          await useCanonicalText(trx, true)
          const report = await copyAndVerify(source.handle.db, trx, tables, secret, step)
          const full = { ...base, ...report }
          const failures = failuresOf(full)
          const done: MoveReport = { ...full, failures, verified: failures.length === 0 }
          if (!done.verified) throw new Unverified(done)
          step('Committing')
          return done
        })
      } catch (error) {
        if (error instanceof Unverified) return error.report
        // PostgreSQL refused a row or a statement: the transaction is gone, and with it the copy.
        throw new BackupFailure(
          `The copy failed, so nothing was committed to ${describePostgres(url)}: ${(error as Error).message}`,
        )
      }
    } finally {
      await target.close()
    }
  } finally {
    await source.close()
  }
}

async function copyAndVerify(
  source: Db,
  trx: Db,
  tables: TableShape[],
  secret: Buffer | undefined,
  step: MoveStep,
): Promise<Omit<MoveReport, 'source' | 'target' | 'failures' | 'verified'>> {
  // Rows go in table by table, in any order, with foreign keys checked once all are in: tasks and
  // comments refer to rows of their own table, which no order of tables puts first.
  const keys = await immediateForeignKeys(trx)
  for (const key of keys)
    await sql`alter table ${sql.table(key.table)} alter constraint ${sql.id(key.name)} deferrable initially deferred`.execute(
      trx,
    )
  step(`Copying ${tables.length} tables`)
  for (const table of tables) await copyTable(source, trx, table)
  step('Checking foreign keys')
  await sql`set constraints all immediate`.execute(trx)
  for (const key of keys)
    await sql`alter table ${sql.table(key.table)} alter constraint ${sql.id(key.name)} not deferrable`.execute(
      trx,
    )
  const sequences = []
  for (const name of await sequencesOf(source)) {
    const found = await sql<{ last_value: string; is_called: boolean }>`
      select last_value::text, is_called from ${sql.table(name)}`.execute(source)
    const position = found.rows[0]
    if (!position) continue
    await sql`select setval(${name}::regclass, ${position.last_value}::bigint, ${position.is_called})`.execute(
      trx,
    )
    const moved = await sql<{ last_value: string; is_called: boolean }>`
      select last_value::text, is_called from ${sql.table(name)}`.execute(trx)
    sequences.push({
      sequence: name,
      source: `${position.last_value}${position.is_called ? '' : ' (unused)'}`,
      target: `${moved.rows[0]?.last_value}${moved.rows[0]?.is_called ? '' : ' (unused)'}`,
    })
  }
  step('Verifying')
  const compared: TableComparison[] = []
  for (const table of tables) {
    const [before, after] = [await tableSum(source, table), await tableSum(trx, table)]
    compared.push({
      table: table.name,
      source_rows: before.rows,
      target_rows: after.rows,
      checksums_match: before.checksum === after.checksum,
    })
  }
  const byName = (name: string) => tables.find((table) => table.name === name) as TableShape
  const search_index = await checkRebuiltIndex(trx, byName('resource_index'), byName('title_words'))
  const credentials = await checkCredentials(source, trx, new Date(), secret)
  return { tables: compared, sequences, search_index, credentials }
}

/**
 * Refuses a target that holds anything but, at most, Workgraph's empty schema (a database
 * `workgraph migrate` prepared, or one a verification refused): a move never mixes its rows with
 * others, and the refusal changes nothing.
 */
async function refuseUsedTarget(db: Db, url: string): Promise<void> {
  const relations = await userRelations(db)
  if (relations.length === 0) return
  const refuse = (what: string): never => {
    throw new BackupFailure(
      `${describePostgres(url)} is not empty (${what}), so nothing was moved: move into a new ` +
        'database (createdb), or one that holds only the schema `workgraph migrate` made.',
    )
  }
  if (!relations.includes('public.kysely_migration'))
    refuse(
      `it has ${relations.length} tables, views or sequences, such as ${relations.slice(0, 3).join(', ')}`,
    )
  const holding: string[] = []
  for (const table of await tablesOf(db)) {
    const found = await sql<{ any: boolean }>`
      select exists (select from ${sql.table(table.name)}) as any`.execute(db)
    if (found.rows[0]?.any) holding.push(table.name)
  }
  if (holding.length > 0)
    refuse(`rows in ${holding.slice(0, 5).join(', ')}${holding.length > 5 ? ', …' : ''}`)
}

// Both databases, migrated by this version, must have the same migrations, tables and columns.
async function sameShapes(source: Db, target: Db): Promise<TableShape[]> {
  const [sourceMigrations, targetMigrations] = [
    await migrationsOf(source),
    await migrationsOf(target),
  ]
  if (sourceMigrations.join() !== targetMigrations.join())
    throw new BackupFailure(
      'The two databases have different migrations applied (PostgreSQL has ' +
        `${targetMigrations.length}, the embedded one ${sourceMigrations.length}): the target was ` +
        'migrated by another version of Workgraph. Nothing was moved.',
    )
  const [tables, targetTables] = [await tablesOf(source), await tablesOf(target)]
  if (JSON.stringify(tables) !== JSON.stringify(targetTables))
    throw new BackupFailure(
      'The two databases have different tables or columns after the same migrations, so ' +
        'nothing was moved: a table was changed by hand on one side.',
    )
  return tables
}
