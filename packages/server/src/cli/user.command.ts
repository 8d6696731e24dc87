import { parseArgs } from 'node:util'
import { emailKey } from '../access/email-password-hashes.ts'
import { loadConfig } from '../config.ts'
import { hashPassword } from '../lib/password.ts'
import { setEmailPassword } from '../web/email-passwords.ts'
import { type CliIO, UsageError } from './cli-io.ts'
import { readNewPassword } from './new-password.ts'
import { openForCommand } from './open-database.ts'

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
  const password = await readNewPassword(io, email)
  const config = loadConfig(io.env, { data: values.data, databaseUrl: values['database-url'] })
  const handle = await openForCommand(config, 'set-password')
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
