import type { FastifyBaseLogger } from 'fastify'
import type { AppDeps } from '../../app-deps.ts'
import { type MailOutcome, sendMail } from '../../mail/mailer.ts'
import type { Invited } from './invitations.commands.ts'

/**
 * Emails an invitation's link to the invitee, once its write has committed: a failure leaves the
 * invitation as it is (the answer says `failed`, and the link can be passed on by hand). The log
 * names the invitation and the error's code, never the link.
 */
export async function emailInvitation(
  deps: AppDeps,
  invited: Invited,
  url: string,
  log: FastifyBaseLogger,
): Promise<MailOutcome> {
  if (deps.config.smtpUrl === undefined) return 'not_configured'
  const { row } = invited
  const names = await deps.db
    .selectFrom('workspaces as w')
    .innerJoin('people as p', 'p.workspace_id', 'w.id')
    .select(['w.name as workspace', 'p.name as inviter'])
    .where('w.id', '=', row.workspace_id)
    .where('p.id', '=', row.invited_by)
    .executeTakeFirstOrThrow()
  const role = row.role === 'admin' ? 'an admin' : `a ${row.role}`
  const text = [
    `${names.inviter} invited you to join ${names.workspace} on Workgraph as ${role}.`,
    '',
    'Open this link to choose your password and join:',
    url,
    '',
    `The link works once, until ${row.expires_at.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    'If you did not expect this invitation, ignore this email.',
  ].join('\n')
  return sendMail(
    deps.config,
    { to: row.email, subject: `Join ${names.workspace} on Workgraph`, text },
    (code) => log.warn({ invitation_id: row.id, mail_error: code }, 'invitation email not sent'),
  )
}
