import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { BackupFailure } from '../backup/backup-failure.ts'
import { backupFormatOf, readHead } from '../backup/backup-format.ts'
import { restoreEmbedded } from '../backup/embedded-restore.ts'
import { restorePostgres } from '../backup/postgres-restore.ts'
import { loadConfig } from '../config.ts'
import { type CliIO, UsageError } from './cli-io.ts'
import { describeDatabase } from './open-database.ts'

/**
 * `workgraph restore FILE [--data DIR | --database-url URL] [--json]`: a backup into an empty
 * data folder (an embedded backup) or an empty PostgreSQL database (a pg_dump custom-format dump),
 * told apart by the file's first bytes. A target that is not empty is refused and left as it was.
 */
export async function restoreCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      data: { type: 'string' },
      'database-url': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  })
  const [file, ...extra] = positionals
  if (!file || extra.length > 0) throw new UsageError('Give exactly one backup file.')
  const config = loadConfig(io.env, { data: values.data, databaseUrl: values['database-url'] })
  const format = formatOf(file)
  if (format === 'embedded' && config.databaseUrl)
    throw new BackupFailure(
      `${file} is a backup of an embedded database, so nothing was restored: restore it into a ` +
        'data folder (--data DIR), then copy that to PostgreSQL with `workgraph move --to URL`.',
    )
  if (format === 'postgres' && !config.databaseUrl)
    throw new BackupFailure(
      `${file} is a PostgreSQL dump, so nothing was restored: restore it into an empty ` +
        'PostgreSQL database with --database-url URL.',
    )
  if (config.databaseUrl) await restorePostgres(config.databaseUrl, file, io.env)
  else await restoreEmbedded(config.dataDir, readFileSync(file), file)

  if (values.json) {
    io.stdout.write(`${JSON.stringify({ file, format, restored: true }, null, 2)}\n`)
    return 0
  }
  const secret =
    config.databaseUrl || io.env.WORKGRAPH_SECRET || existsSync(join(config.dataDir, 'secret'))
      ? 'Start the servers on it with the secret of the server the backup was taken from'
      : `This folder has no secret yet: before its first start, copy the backed-up folder's ` +
        `secret file into ${config.dataDir} (or set WORKGRAPH_SECRET to it); a start without it ` +
        'makes a new secret'
  io.stdout.write(
    `Restored ${file} into the ${describeDatabase(config)}.\n` +
      `${secret}: with another one, webhook signing secrets no longer open (docs/operations.md, "Backups and restore").\n`,
  )
  return 0
}

// The file's format by its first bytes; a file that cannot be read or is neither is a failure.
function formatOf(file: string) {
  let head: Buffer
  try {
    head = readHead(file)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why =
      code === 'ENOENT'
        ? 'there is no such file'
        : code === 'EISDIR'
          ? 'it is a folder'
          : code === 'EACCES' || code === 'EPERM'
            ? 'this user may not read it'
            : (error as Error).message
    throw new BackupFailure(`Cannot read ${file}: ${why}. Nothing was restored.`)
  }
  const format = backupFormatOf(head)
  if (!format)
    throw new BackupFailure(
      `${file} is not a Workgraph backup: it is neither an embedded database's backup (gzip) ` +
        'nor a PostgreSQL custom-format dump (PGDMP). Nothing was restored.',
    )
  return format
}
