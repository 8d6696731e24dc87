import { BackupFailure } from './backup-failure.ts'
import { pgCommandLine, runPgTool } from './pg-tools.ts'
import { connectTarget, describePostgres, userRelations } from './postgres-target.ts'

// Objects are made by the restoring user, whoever owned them where the dump was taken, and all of
// it is one transaction: a failure restores nothing.
const RESTORE_FLAGS = ['--no-owner', '--no-acl', '--single-transaction', '--exit-on-error']

/**
 * Restores a custom-format dump into an empty PostgreSQL database with pg_restore. The dump is
 * read through once first (`pg_restore --list`), and the database checked for emptiness, so
 * that neither a damaged file nor a database in use is ever touched.
 */
export async function restorePostgres(
  url: string,
  file: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const listed = await runPgTool('pg_restore', ['--list', file], env)
  if (listed === 'missing')
    throw new BackupFailure(
      'pg_restore is not on the PATH, so nothing was restored. Install PostgreSQL’s client ' +
        'programs, or run it where they are, into an empty database:\n  ' +
        `${pgCommandLine('pg_restore', [...RESTORE_FLAGS, file], url)}\n` +
        '(with the password, if any, in PGPASSWORD).',
    )
  if (listed.status !== 0)
    throw new BackupFailure(`${file} is not a dump pg_restore can read: ${listed.stderr}`)
  const handle = await connectTarget(url)
  try {
    const found = await userRelations(handle.db)
    if (found.length > 0)
      throw new BackupFailure(
        `${describePostgres(url)} is not empty (it has ${found.length} tables, views or ` +
          `sequences, such as ${found.slice(0, 3).join(', ')}), so nothing was restored: restore ` +
          'into a new database (createdb), then point the servers at it.',
      )
  } finally {
    await handle.close()
  }
  const restored = await runPgTool('pg_restore', [...RESTORE_FLAGS, file], env, url)
  if (restored === 'missing') throw new BackupFailure('pg_restore went missing from the PATH.')
  if (restored.status !== 0)
    throw new BackupFailure(
      `pg_restore failed; it ran as one transaction, so nothing was restored:\n${restored.stderr}`,
    )
}
