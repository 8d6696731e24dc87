import { type AuditActor, recordAudit } from '../audit/audit-writer.ts'
import type { Db } from '../db/database.ts'
import { disableBoundEndpoints } from '../webhooks/endpoint-binding.ts'
import type { OAuthGrantRow } from './oauth-grants.queries.ts'
import { revokeMadeWith } from './tokens.commands.ts'

/**
 * Revokes a grant: the remembered consent, its refresh and access tokens and any unspent code
 * go in one statement, so the app's next request is refused everywhere at once. What was made
 * with it ends too: the API keys created through the app (and with those keys), and the webhook
 * endpoints bound to any of them.
 */
export async function revokeOAuthGrant(
  trx: Db,
  actor: AuditActor,
  grant: OAuthGrantRow,
  now: Date,
): Promise<void> {
  await trx.deleteFrom('oauth_artifacts').where('grant_id', '=', grant.id).execute()
  await revokeMadeWith(trx, actor, grant.id, now)
  await disableBoundEndpoints(trx, actor, [grant.id], now)
  await recordAudit(
    trx,
    actor,
    {
      action: 'oauth_grant.revoked',
      resourceId: grant.id,
      resourceType: 'oauth_grant',
      before: { client_id: grant.client_id, person_id: grant.person_id, scopes: grant.scopes },
      after: null,
    },
    now,
  )
}
