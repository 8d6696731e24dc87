import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { loadConfig } from '../config.ts'
import { hashPassword } from '../lib/password.ts'
import { endSessionsOf } from '../web/web-session.ts'
import { type CliIO, UsageError } from './cli-io.ts'
import { openMigratedDatabase } from './open-database.ts'

const MIN_LENGTH = 12
const MAX_LENGTH = 1024

/**
 * `workgraph user set-password --email EMAIL [--workspace wsp_…]`: sets the password a person
 * signs in with on the dashboard and the OAuth pages, and ends their dashboard sessions. The
 * password is read from standard input, never from the command line, where other users of the
 * machine could read it in the process list.
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
    throw new UsageError('Usage: workgraph user set-password --email EMAIL < password-file')
  }
  const email = values.email?.trim().toLowerCase()
  if (!email) throw new UsageError('Give the person’s --email.')
  const password = (await readAll(io.stdin)).replace(/\r?\n$/, '')
  if (password.length < MIN_LENGTH || password.length > MAX_LENGTH) {
    io.stderr.write(
      `The password on standard input must have ${MIN_LENGTH} to ${MAX_LENGTH} characters.\n`,
    )
    return 1
  }
  const config = loadConfig(io.env, { data: values.data, databaseUrl: values['database-url'] })
  const handle = await openMigratedDatabase(config)
  try {
    let people = handle.db
      .selectFrom('people')
      .select(['id', 'workspace_id'])
      .where(sql`lower(email)`, '=', email)
    if (values.workspace) people = people.where('workspace_id', '=', values.workspace)
    const matches = await people.execute()
    if (matches.length === 0) {
      io.stderr.write(
        `No person has the email ${email}${values.workspace ? ` in ${values.workspace}` : ''}.\n`,
      )
      return 1
    }
    if (matches.length > 1) {
      io.stderr.write(
        `${email} is a person in ${matches.length} workspaces (${matches.map((m) => m.workspace_id).join(', ')}); choose one with --workspace.\n`,
      )
      return 1
    }
    const [person] = matches as [{ id: string; workspace_id: string }]
    const hash = await hashPassword(password)
    // A new password signs out every dashboard session of the old one, in the same transaction.
    await handle.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('people')
        .set({ password_hash: hash })
        .where('workspace_id', '=', person.workspace_id)
        .where('id', '=', person.id)
        .execute()
      await endSessionsOf(trx, {
        workspaceId: person.workspace_id,
        personId: person.id,
        now: new Date(),
      })
    })
    io.stdout.write(
      `Password set for ${email} (${person.id} in ${person.workspace_id}); their dashboard sessions are ended.\n`,
    )
    return 0
  } finally {
    await handle.close()
  }
}

async function readAll(input: CliIO['stdin']): Promise<string> {
  if (!input) return ''
  const chunks: Buffer[] = []
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
  return Buffer.concat(chunks).toString('utf8')
}
