import { parseArgs } from 'node:util'
import { Value } from 'typebox/value'
import '../lib/typebox-formats.ts'
import { emailPasswordHash } from '../access/email-password-hashes.ts'
import type { AuditActor } from '../audit/audit-writer.ts'
import { loadConfig } from '../config.ts'
import { hashPassword } from '../lib/password.ts'
import type { CreatedWorkspace, StartedWorkspace } from '../setup/create-workspace.ts'
import { startWorkspace } from '../setup/create-workspace.ts'
import { NewOwner, trimmedOwner } from '../setup/owner-input.ts'
import { hasWorkspace, withSetupLock, workspaceCount } from '../setup/setup-lock.ts'
import { type CliIO, CommandFailure, UsageError } from './cli-io.ts'
import { readNewPassword } from './new-password.ts'
import { describeDatabase, openForCommand } from './open-database.ts'

/**
 * `workgraph init --workspace-name NAME --name NAME --email EMAIL [--no-password]
 * [--another-workspace]`: makes a workspace and its owner on a new server, and prints the owner's
 * first API key (once) and a request to try it with. The password is asked without echo on a
 * terminal or read from standard input; with `--no-password`, a single-use link to choose it is
 * printed instead. A database that has a workspace already is left alone unless
 * `--another-workspace` says that one more is meant.
 */
export async function initCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      'workspace-name': { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string' },
      'no-password': { type: 'boolean', default: false },
      'another-workspace': { type: 'boolean', default: false },
      data: { type: 'string' },
      'database-url': { type: 'string' },
    },
    strict: true,
  })
  const owner = checkedOwner(values)
  const config = loadConfig(io.env, { data: values.data, databaseUrl: values['database-url'] })
  const another = values['another-workspace']
  const handle = await openForCommand(config, 'init')
  try {
    // Before asking for a password: a database that has its workspace needs none.
    if (!another) await refuseSecond(handle.db)
    const existing = await emailPasswordHash(handle.db, owner.email)
    const password =
      existing || values['no-password']
        ? { link: true as const }
        : { hash: await hashPassword(await readNewPassword(io, owner.email)) }
    const started = await withSetupLock(handle.db, async (trx) => {
      if (!another && (await hasWorkspace(trx))) return null
      return startWorkspace(trx, owner, {
        password,
        now: new Date(),
        actor: async (_trx, created) => cliActor(created),
      })
    })
    // Another init won the race between the first look and the lock.
    if (!started) await refuseSecond(handle.db)
    io.stdout.write(banner(started as StartedWorkspace, config.publicUrl, describeDatabase(config)))
    return 0
  } finally {
    await handle.close()
  }
}

// The three flags, trimmed and within a bundle's limits; a usage error names what is wrong.
function checkedOwner(values: {
  'workspace-name'?: string | undefined
  name?: string | undefined
  email?: string | undefined
}): NewOwner {
  const owner = trimmedOwner({
    workspace_name: values['workspace-name'],
    name: values.name,
    email: values.email,
  })
  const flags = [
    ['--workspace-name', owner.workspace_name],
    ['--name', owner.name],
    ['--email', owner.email],
  ] as const
  const missing = flags.filter(([, value]) => value === '').map(([flag]) => flag)
  if (missing.length > 0) throw new UsageError(`Give ${missing.join(', ')}.`)
  if (owner.workspace_name.length > 200)
    throw new UsageError('--workspace-name may have at most 200 characters.')
  if (owner.name.length > 200) throw new UsageError('--name may have at most 200 characters.')
  const valid: boolean = Value.Check(NewOwner, owner)
  if (!valid) throw new UsageError(`--email "${owner.email}" is not an email address.`)
  return owner
}

async function refuseSecond(db: Parameters<typeof workspaceCount>[0]): Promise<void> {
  const count = await workspaceCount(db)
  if (count === 0) return
  throw new CommandFailure(
    `This database has ${count === 1 ? 'a workspace' : `${count} workspaces`} already, so init ` +
      'changed nothing: it starts a new server. To add a workspace to this one on purpose, ' +
      'run it again with --another-workspace.',
  )
}

// The audit log's record of a creation from the command line: the owner, through no credential.
function cliActor(created: CreatedWorkspace): AuditActor {
  return {
    workspaceId: created.workspaceId,
    actorId: created.personId,
    tokenId: null,
    tokenKind: null,
    clientId: null,
    requestId: null,
    ip: null,
    userAgent: null,
    via: 'cli',
  }
}

// What init prints: the one time the key (and a password link) is shown.
function banner(started: StartedWorkspace, base: string, where: string): string {
  const { password } = started
  const signIn =
    password.kind === 'given'
      ? [`Dashboard sign-in: ${started.email} with the password you gave.`]
      : password.kind === 'existing'
        ? [
            `Dashboard sign-in: ${started.email} with the password this email has already (one password per email, in every workspace).`,
          ]
        : [
            `Dashboard sign-in: ${started.email}, once a password is chosen with this link (it works once, within 24 hours, while the server runs):`,
            `  ${base}/set-password/${password.link}`,
          ]
  return [
    `Workspace "${started.workspaceName}" (${started.workspaceId}) is ready, in the ${where}.`,
    `Owner: ${started.personName} <${started.email}> (${started.personId}).`,
    ``,
    ...signIn,
    `API key of ${started.personName}, owner (shown this once: only its hash is kept): ${started.apiKey}`,
    ``,
    `Start the server on the same database (workgraph serve), then try it:`,
    `  curl -s -H "Authorization: Bearer ${started.apiKey}" ${base}/v1/workspace`,
    ``,
  ].join('\n')
}
