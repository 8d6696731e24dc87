import { parseArgs } from 'node:util'
import { type CliIO, UsageError } from './cli-io.ts'
import { serverCall } from './server-call.ts'
import { serverTarget } from './server-target.ts'

const ROLES = ['member', 'guest', 'admin'] as const

/**
 * `workgraph invite --email EMAIL [--role member|guest|admin] [--name NAME]`: invites a person to
 * the workspace of WORKGRAPH_API_KEY on the server WORKGRAPH_URL, as `POST /v1/invitations` does
 * (an owner's or admin's key with `people:write`). It prints the one-time link, which the server
 * shows this once, and whether it was emailed.
 */
export async function inviteCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      role: { type: 'string', default: 'member' },
      name: { type: 'string' },
    },
    strict: true,
  })
  if (!values.email) throw new UsageError('Give the --email to invite.')
  const role = values.role as (typeof ROLES)[number]
  if (!ROLES.includes(role))
    throw new UsageError(`--role is one of ${ROLES.join(', ')}; got ${values.role}.`)
  const target = serverTarget(io.env)
  const answer = await serverCall(target, 'POST', '/v1/invitations', {
    email: values.email,
    role,
    ...(values.name ? { name: values.name } : {}),
  })
  const invitation = answer.invitation as { id: string; email: string; expires_at: string }
  const emailed: Record<string, string> = {
    sent: `It was emailed to ${invitation.email}.`,
    failed: 'Emailing it failed: pass the link on yourself.',
    not_configured: 'No SMTP server is configured: pass the link on yourself.',
  }
  io.stdout.write(
    [
      `Invited ${invitation.email} as ${role} (${invitation.id}).`,
      `One-time link, shown this once, until ${invitation.expires_at}:`,
      `  ${answer.url}`,
      emailed[String(answer.email)] ?? '',
      '',
    ].join('\n'),
  )
  return 0
}
