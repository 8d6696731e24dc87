import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { reportText } from '../backup/move-report.ts'
import { moveToPostgres } from '../backup/move-to-postgres.ts'
import { type Config, loadConfig, loadSecret } from '../config.ts'
import { DataDirLockedError } from '../db/embedded-lock.ts'
import { type CliIO, CommandFailure, UsageError } from './cli-io.ts'

/**
 * `workgraph move --to URL [--data DIR] [--json]`: copies the embedded database into an empty
 * PostgreSQL database, verifies the copy and commits it only when every check passes; exit status
 * 1 when one fails. The data folder is only read.
 */
export async function moveCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      to: { type: 'string' },
      data: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  })
  if (!values.to) throw new UsageError('Give --to URL: the PostgreSQL database to move to.')
  const url = postgresUrl(values.to)
  // The source is the data folder whatever DATABASE_URL says: that is where the move goes.
  const config = loadConfig({ ...io.env, DATABASE_URL: undefined }, { data: values.data })
  const step = values.json ? undefined : (what: string) => io.stderr.write(`${what}…\n`)
  let report: Awaited<ReturnType<typeof moveToPostgres>>
  try {
    report = await moveToPostgres(config.dataDir, url, serverSecret(config, io.env), step)
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error
    throw new CommandFailure(
      `${error.message.replace(/ Stop that process.*$/, '')} Stop it (Ctrl-C where it runs), ` +
        'then run move again: what a server writes after the copy would not be moved, so the ' +
        'move needs the folder to itself. Nothing was changed.',
    )
  }
  io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : reportText(report))
  return report.verified ? 0 : 1
}

// --to as a PostgreSQL URL, or a usage error that says what one looks like.
function postgresUrl(value: string): string {
  let parsed: URL | undefined
  try {
    parsed = new URL(value)
  } catch {
    parsed = undefined
  }
  if (
    !parsed ||
    !['postgres:', 'postgresql:'].includes(parsed.protocol) ||
    parsed.pathname.length < 2
  )
    throw new UsageError(
      `--to must be a PostgreSQL URL naming a database, such as postgres://user@host:5432/workgraph.`,
    )
  return value
}

// The secret the servers will run with, to check that webhook signing secrets open with it: the
// environment's, or the one the embedded server made in its folder (read, never made here).
function serverSecret(config: Config, env: NodeJS.ProcessEnv): Buffer | undefined {
  if (env.WORKGRAPH_SECRET) return loadSecret(env, config)
  const file = join(config.dataDir, 'secret')
  if (!existsSync(file)) return undefined
  return loadSecret({ WORKGRAPH_SECRET: readFileSync(file, 'utf8').trim() }, config)
}
