import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { backupEmbedded } from '../backup/embedded-backup.ts'
import { backupPostgres } from '../backup/postgres-backup.ts'
import { loadConfig } from '../config.ts'
import { type CliIO, UsageError } from './cli-io.ts'
import { describeDatabase } from './open-database.ts'
import { secretKeeping } from './secret-keeping.ts'

/**
 * `workgraph backup --out FILE [--data DIR | --database-url URL] [--json]`: a consistent copy of
 * the database, taken while servers run, written to FILE whole or not at all.
 */
export async function backupCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      data: { type: 'string' },
      'database-url': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  })
  if (!values.out) throw new UsageError('Give --out FILE: the file to write the backup to.')
  const config = loadConfig(io.env, { data: values.data, databaseUrl: values['database-url'] })
  const out = values.out
  let takenBy: string
  if (config.databaseUrl) {
    await backupPostgres(config.databaseUrl, out, io.env)
    takenBy = 'pg_dump'
  } else takenBy = await backupEmbedded(config, out)
  const bytes = statSync(out).size
  if (values.json) {
    const format = config.databaseUrl ? 'postgres' : 'embedded'
    io.stdout.write(
      `${JSON.stringify({ file: resolve(out), format, bytes, taken_by: takenBy }, null, 2)}\n`,
    )
    return 0
  }
  const how =
    takenBy === 'pg_dump'
      ? 'pg_dump, custom format'
      : takenBy === 'server'
        ? 'a snapshot taken by the server that holds the folder'
        : 'a snapshot of the folder'
  io.stdout.write(
    `Backed up the ${describeDatabase(config)} into ${out} (${megabytes(bytes)}, ${how}).\n` +
      `${secretKeeping(config, io.env)}\n`,
  )
  return 0
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`
}
