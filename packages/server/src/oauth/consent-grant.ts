import type { FastifyRequest } from 'fastify'
import type Provider from 'oidc-provider'
import type { Interaction } from 'oidc-provider'
import { recordAudit } from '../audit/audit-writer.ts'
import type { Db } from '../db/database.ts'
import { narrowMadeWith } from '../tokens/tokens.commands.ts'
import { fenceGrant, fenceOfGrant } from './consent-projects.ts'

/** The scopes a grant holds for this API, sorted. */
function grantedScopes(grant: { resources?: Record<string, string> | undefined }): string[] {
  return Object.values(grant.resources ?? {})
    .flatMap((scope) => scope.split(' '))
    .sort()
}

/**
 * Records a person's approval: adds what the interaction asked for and the grant lacks to the
 * grant (a new one the first time; the remembered one after), and audits the change in the
 * person's workspace. Projects picked on the page fence the grant, replacing its former fence, and
 * narrow what was made with it (keys, endpoints) to them.
 * Returns the grant id the provider finishes the consent with.
 */
export async function approveConsent(input: {
  db: Db
  provider: Provider
  request: FastifyRequest
  interaction: Interaction
  person: { id: string; workspace_id: string }
  /** The projects picked on the page (consent-projects.ts); null when the page offered none. */
  projectIds: readonly string[] | null
  now: Date
}): Promise<string> {
  const { provider, interaction, person, request } = input
  const clientId = String(interaction.params.client_id)
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined
  const grant = existing ?? new provider.Grant({ accountId: person.id, clientId })
  const before = existing ? grantedScopes(existing) : null
  const missing = interaction.prompt.details as {
    missingOIDCScope?: string[]
    missingResourceScopes?: Record<string, string[]>
  }
  if (missing.missingOIDCScope?.length) grant.addOIDCScope(missing.missingOIDCScope.join(' '))
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(' '))
  }
  const grantId = await grant.save()
  const fenceBefore = await fenceOfGrant(input.db, existing ? grantId : undefined)
  if (input.projectIds !== null) {
    // The grant is fenced anew; what was made with it never reaches further than it now does.
    await input.db.transaction().execute(async (trx) => {
      await fenceGrant(trx, grantId, input.projectIds as readonly string[])
      await narrowMadeWith(trx, person.workspace_id, grantId, input.projectIds as readonly string[])
    })
  }
  const fence = input.projectIds === null ? fenceBefore : [...input.projectIds]
  const userAgent = request.headers['user-agent']
  await recordAudit(
    input.db,
    {
      workspaceId: person.workspace_id,
      actorId: person.id,
      tokenId: grantId,
      tokenKind: 'oauth',
      clientId,
      requestId: request.id,
      ip: request.ip,
      userAgent: typeof userAgent === 'string' ? userAgent : null,
    },
    {
      action: 'oauth_grant.approved',
      resourceId: grantId,
      resourceType: 'oauth_grant',
      before: before ? { client_id: clientId, scopes: before, project_ids: fenceBefore } : null,
      after: { client_id: clientId, scopes: grantedScopes(grant), project_ids: fence },
    },
    input.now,
  )
  return grantId
}
