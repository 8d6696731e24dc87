import { writeAtomically } from './atomic-file.ts'
import { BackupFailure } from './backup-failure.ts'
import { pgCommandLine, runPgTool } from './pg-tools.ts'

/**
 * Backs a PostgreSQL database up into `out` with `pg_dump --format=custom`, which reads it in one
 * transaction's snapshot, so the copy is consistent while servers write. The dump goes to a
 * temporary file renamed into place when pg_dump has succeeded.
 */
export async function backupPostgres(
  url: string,
  out: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  await writeAtomically(out, async (temporary) => {
    const result = await runPgTool('pg_dump', ['--format=custom', `--file=${temporary}`], env, url)
    if (result === 'missing')
      throw new BackupFailure(
        'pg_dump is not on the PATH, so nothing was written. Install PostgreSQL’s client programs ' +
          '(the major version of the server or newer), or run it where they are:\n  ' +
          `${pgCommandLine('pg_dump', ['--format=custom', `--file=${out}`], url)}\n` +
          '(with the password, if any, in PGPASSWORD). `workgraph restore` reads that file.',
      )
    if (result.status !== 0)
      throw new BackupFailure(`pg_dump failed, so nothing was written:\n${result.stderr}`)
  })
}
