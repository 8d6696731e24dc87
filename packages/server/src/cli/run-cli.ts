import { ConfigError } from '../config.ts'
import { DataDirLockedError } from '../db/embedded-lock.ts'
import { type CliIO, UsageError } from './cli-io.ts'
import { demoCommand } from './demo.command.ts'
import { importCommand } from './import.command.ts'
import { mcpCommand } from './mcp.command.ts'
import { migrateCommand } from './migrate.command.ts'
import { oauthClientCommand } from './oauth-client.command.ts'
import { serveCommand } from './serve.command.ts'
import { userCommand } from './user.command.ts'
import { workerCommand } from './worker.command.ts'

const HELP = `workgraph: the Workgraph API server and its tools

Usage:
  workgraph serve   [--port 8080] [--host 127.0.0.1] [--data DIR | --database-url URL] [--demo]
  workgraph import  FILE [--data DIR | --database-url URL] [--json]
  workgraph demo    [--out FILE] [--scale N] [--seed S] [--today YYYY-MM-DD]
  workgraph migrate [--data DIR | --database-url URL]
  workgraph worker  [--data DIR | --database-url URL] [--once]   (delivers webhooks)
  workgraph oauth-client create --name NAME --redirect-uri URI [--redirect-uri URI…]
                    [--confidential] [--workspace wsp_…] [--json] [--data DIR | --database-url URL]
  workgraph user set-password --email EMAIL [--workspace wsp_…] [--data DIR | --database-url URL]
                    (reads the password from standard input)
  workgraph mcp     (MCP over stdio, relayed to WORKGRAPH_URL with WORKGRAPH_API_KEY)

Without --database-url (or DATABASE_URL) the embedded database in --data (default ./.workgraph)
is used. Every setting is described in docs/configuration.md.
`

const COMMANDS: Record<string, (args: string[], io: CliIO) => Promise<number>> = {
  serve: serveCommand,
  import: importCommand,
  demo: demoCommand,
  migrate: migrateCommand,
  worker: workerCommand,
  'oauth-client': oauthClientCommand,
  user: userCommand,
  mcp: mcpCommand,
}

/** Runs one CLI command and returns its exit status: 0 success, 1 failure, 2 usage error. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...args] = argv
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.stdout.write(HELP)
    return name === undefined ? 2 : 0
  }
  const command = COMMANDS[name]
  if (!command) {
    io.stderr.write(`Unknown command "${name}".\n\n${HELP}`)
    return 2
  }
  try {
    return await command(args, io)
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS')
    ) {
      io.stderr.write(`${(error as Error).message}\n\n${HELP}`)
      return 2
    }
    if (error instanceof DataDirLockedError) {
      io.stderr.write(`${error.message}\n`)
      return 1
    }
    throw error
  }
}
