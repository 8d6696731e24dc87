import { parseArgs } from 'node:util'
import { loadConfig } from '../config.ts'
import { DataDirLockedError } from '../db/embedded-lock.ts'
import { hashPassword } from '../lib/password.ts'
import { emailKey, setEmailPassword } from '../web/email-passwords.ts'
import { type CliIO, CommandFailure, UsageError } from './cli-io.ts'
import { openMigratedDatabase } from './open-database.ts'
import { promptHidden, type TerminalInput } from './password-input.ts'

const MIN_LENGTH = 12
const MAX_LENGTH = 1024

/**
 * `workgraph user set-password --email EMAIL`: sets the password an email signs in with on the
 * dashboard and the OAuth pages, for every person with that email in every workspace (one
 * password per email, web/email-passwords.ts), and ends their dashboard sessions. The password
 * is asked without echo on a terminal, or read from standard input when it is piped; never from
 * the command line, where other users of the machine could read it in the process list.
 */
export async function userCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      workspace: { type: 'string' },
      data: { type: 'string' },
      'database-url': { type: 'string' },
    },
    strict: true,
  })
  if (positionals.length !== 1 || positionals[0] !== 'set-password') {
    throw new UsageError('Usage: workgraph user set-password --email EMAIL [< password-file]')
  }
  if (values.workspace !== undefined) {
    throw new UsageError(
      'An email has one password in every workspace; set-password takes no --workspace.',
    )
  }
  const email = values.email === undefined ? '' : emailKey(values.email)
  if (!email) throw new UsageError('Give the person’s --email.')
  const password = await readPassword(io, email)
  if (password.length < MIN_LENGTH || password.length > MAX_LENGTH) {
    io.stderr.write(`The password must have ${MIN_LENGTH} to ${MAX_LENGTH} characters.\n`)
    return 1
  }
  const config = loadConfig(io.env, { data: values.data, databaseUrl: values['database-url'] })
  const handle = await openMigratedDatabase(config).catch((error: unknown) => {
    // The running server holds the embedded database; say what to do rather than only why.
    if (!(error instanceof DataDirLockedError)) throw error
    throw new CommandFailure(
      `${error.message} A server holds it: stop it (Ctrl-C where it runs), run this again, then ` +
        'start it; with PostgreSQL (--database-url) set-password works while servers run.',
    )
  })
  try {
    const hash = await hashPassword(password)
    // Every person of the email gets the hash, and their dashboard sessions end, in one
    // transaction.
    const people = await handle.db
      .transaction()
      .execute((trx) => setEmailPassword(trx, { email, hash, now: new Date() }))
    if (people.length === 0) {
      io.stderr.write(`No person has the email ${email}.\n`)
      return 1
    }
    const where = people.map((person) => `${person.id} in ${person.workspace_id}`).join(', ')
    io.stdout.write(`Password set for ${email} (${where}); their dashboard sessions are ended.\n`)
    return 0
  } finally {
    await handle.close()
  }
}

/**
 * The new password: asked twice without echo on a terminal, else read from standard input (a
 * file or a pipe), whose final line break is not part of it.
 */
async function readPassword(io: CliIO, email: string): Promise<string> {
  const terminal = io.stdin as (CliIO['stdin'] & Partial<TerminalInput>) | undefined
  if (terminal?.isTTY && typeof terminal.setRawMode === 'function') {
    const input = terminal as TerminalInput
    const first = await promptHidden(input, io.stderr, `New password for ${email}: `)
    const again = await promptHidden(input, io.stderr, 'The same again: ')
    if (first !== again) throw new CommandFailure('The two passwords differ: nothing was set.')
    return first
  }
  return (await readAll(io.stdin)).replace(/\r?\n$/, '')
}

async function readAll(input: CliIO['stdin']): Promise<string> {
  if (!input) return ''
  const chunks: Buffer[] = []
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
  return Buffer.concat(chunks).toString('utf8')
}
