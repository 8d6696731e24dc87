import packageJson from '../../package.json' with { type: 'json' }
import { BackupFailure } from '../backup/backup-failure.ts'
import { ConfigError } from '../config.ts'
import { DataDirLockedError } from '../db/embedded-lock.ts'
import { defineBuiltInKinds } from '../kinds/built-in-kinds.ts'
import { DataFolderError } from '../lib/data-folder-check.ts'
import { backupCommand } from './backup.command.ts'
import { type CliIO, CommandFailure, UsageError } from './cli-io.ts'
import { commandHelpText, overviewText } from './command-help.ts'
import { demoCommand } from './demo.command.ts'
import { importCommand } from './import.command.ts'
import { initCommand } from './init.command.ts'
import { inviteCommand } from './invite.command.ts'
import { listenCommand } from './listen.command.ts'
import { mcpCommand } from './mcp.command.ts'
import { migrateCommand } from './migrate.command.ts'
import { moveCommand } from './move.command.ts'
import { oauthClientCommand } from './oauth-client.command.ts'
import { restoreCommand } from './restore.command.ts'
import { serveCommand } from './serve.command.ts'
import { userCommand } from './user.command.ts'
import { workerCommand } from './worker.command.ts'

/** Every command, by name (each has its help in command-help.ts). */
export const COMMANDS: Record<string, (args: string[], io: CliIO) => Promise<number>> = {
  serve: serveCommand,
  init: initCommand,
  import: importCommand,
  demo: demoCommand,
  migrate: migrateCommand,
  worker: workerCommand,
  'oauth-client': oauthClientCommand,
  user: userCommand,
  invite: inviteCommand,
  mcp: mcpCommand,
  listen: listenCommand,
  backup: backupCommand,
  restore: restoreCommand,
  move: moveCommand,
}

const HELP_FLAGS = new Set(['--help', '-h', 'help'])
const VERSION_FLAGS = new Set(['--version', '-v'])

// The kind of an expected failure, as `--json` names it, and its exit status.
function classify(error: unknown): { code: string; status: number } | undefined {
  if (error instanceof UsageError || error instanceof ConfigError)
    return { code: 'usage_error', status: 2 }
  if (String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS'))
    return { code: 'usage_error', status: 2 }
  if (error instanceof DataDirLockedError) return { code: 'data_dir_locked', status: 1 }
  if (error instanceof DataFolderError) return { code: 'data_dir_unusable', status: 1 }
  if (error instanceof CommandFailure || error instanceof BackupFailure)
    return { code: 'failed', status: 1 }
  return undefined
}

/** Runs one CLI command and returns its exit status: 0 success, 1 failure, 2 usage error. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  defineBuiltInKinds()
  const [name, ...args] = argv
  if (argv.some((arg) => VERSION_FLAGS.has(arg))) {
    io.stdout.write(`workgraph ${packageJson.version}\n`)
    return 0
  }
  if (name === undefined || HELP_FLAGS.has(name)) {
    io.stdout.write(overviewText())
    return name === undefined ? 2 : 0
  }
  const command = COMMANDS[name]
  if (!command) {
    io.stderr.write(`Unknown command "${name}".\n\n${overviewText()}`)
    return 2
  }
  if (args.some((arg) => HELP_FLAGS.has(arg) && arg !== 'help')) {
    io.stdout.write(commandHelpText(name))
    return 0
  }
  const json = args.includes('--json')
  try {
    return await command(args, io)
  } catch (error) {
    const known = classify(error)
    const message = (error as Error).message
    if (json) {
      // A script reading --json output gets every error in the same form, even an unexpected one.
      const code = known?.code ?? 'internal_error'
      io.stderr.write(`${JSON.stringify({ error: { code, message } })}\n`)
      return known?.status ?? 1
    }
    if (!known) throw error
    io.stderr.write(known.status === 2 ? `${message}\n\n${commandHelpText(name)}` : `${message}\n`)
    return known.status
  }
}
