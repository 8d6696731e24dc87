import type { AuditActor } from '../../audit/audit-writer.ts'
import { recordAudit } from '../../audit/audit-writer.ts'
import type { Db } from '../../db/database.ts'
import { revokeOAuthGrant } from '../../tokens/oauth-grants.commands.ts'
import { grantsOfPerson } from '../../tokens/oauth-grants.queries.ts'
import { revokeToken } from '../../tokens/tokens.commands.ts'
import { disableBoundEndpoints } from '../../webhooks/endpoint-binding.ts'
import { presentInvitation } from './invitations.present.ts'

/**
 * Ends everything a person holds, in the caller's transaction (deactivation, docs/permissions.md):
 * their dashboard sessions; their API keys and OAuth grants through the revocation the token
 * routes use, so what was made with them ends too and the webhook endpoints bound to any of them
 * are disabled with `credential_revoked`; the authorization server's sessions of the person; the
 * endpoints made on the dashboard, which are bound to the person; and the invitations they sent
 * that are still pending, since an invitation carries the authority of whoever sent it.
 */
export async function endCredentialsOf(
  trx: Db,
  actor: AuditActor,
  personId: string,
  now: Date,
): Promise<void> {
  const ws = actor.workspaceId
  await trx
    .updateTable('web_sessions')
    .set({ ended_at: now })
    .where('workspace_id', '=', ws)
    .where('person_id', '=', personId)
    .where('ended_at', 'is', null)
    .execute()
  const keys = await trx
    .selectFrom('tokens')
    .selectAll()
    .where('workspace_id', '=', ws)
    .where('person_id', '=', personId)
    .where('revoked_at', 'is', null)
    .orderBy('id')
    .execute()
  for (const key of keys) await revokeToken(trx, actor, key, now)
  for (const grant of await grantsOfPerson(trx, ws, personId))
    await revokeOAuthGrant(trx, actor, grant, now)
  // The provider's own sessions would skip the sign-in page for the next app that asks.
  await trx.deleteFrom('oauth_artifacts').where('account_id', '=', personId).execute()
  await disableBoundEndpoints(trx, actor, [personId], now)
  const sent = await trx
    .updateTable('invitations')
    .set({ revoked_at: now })
    .where('workspace_id', '=', ws)
    .where('invited_by', '=', personId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .execute()
  for (const invitation of sent)
    await recordAudit(
      trx,
      actor,
      {
        action: 'invitation.revoked',
        resourceId: invitation.id,
        resourceType: 'invitation',
        before: { status: 'pending' },
        after: { status: presentInvitation(invitation, now).status },
      },
      now,
    )
}
