import { canAdminister } from '../access/administration.ts'
import { lineageOf } from '../access/credential-reach.ts'
import type { Fence } from '../access/fence.ts'
import { opensAllOf } from '../access/opens-all-of.ts'
import { fencedPrincipal, resolvePrincipal } from '../access/principal.ts'
import { isKnownScope } from '../access/scopes.ts'
import { hashSecret, lastFour, newSecret, SECRET_PREFIX } from '../access/secrets.ts'
import { visibilityFor } from '../access/visibility.ts'
import { ProblemError } from '../api/problem-catalogue.ts'
import { recordAudit } from '../audit/audit-writer.ts'
import { newId } from '../lib/ids.ts'
import type { WriteContext } from '../writes/write-context.ts'
import { limitsOfNewCredential } from './credential-limits.ts'
import { type Issued, requireScopesHeld } from './tokens.commands.ts'
import { auditedToken } from './tokens.present.ts'

/** Which integration a new workspace token acts as: an existing one, or one made with it. */
export type TokenIntegration = { id: string } | { newName: string }

/**
 * Issues a workspace token to an integration of the workspace (made here when new), audited as
 * `workspace_token.created`. Only owners and admins may (they manage every token), and only with
 * scopes they hold themselves, like every credential issued (`requireScopesHeld`), within their
 * own fence and end (credential-limits.ts), and only for an integration that opens, within that
 * fence, nothing they cannot open themselves: administering opens no content, so it cannot hand
 * any out either. The token ends with the credential that made it.
 */
export async function createWorkspaceToken(
  w: WriteContext,
  input: {
    name: string
    integration: TokenIntegration
    scopes: readonly string[]
    project_ids?: readonly string[] | undefined
    expires_at?: string | undefined
  },
): Promise<Issued> {
  const { principal } = w.caller
  if (principal.actorKind !== 'person' || !canAdminister(principal))
    throw new ProblemError('forbidden', 'Workspace tokens are made by owners and admins.')
  const unknown = input.scopes.filter((scope) => !isKnownScope(scope))
  if (unknown.length > 0)
    throw new ProblemError('validation_failed', `Unknown scopes: ${unknown.join(', ')}.`)
  requireScopesHeld(w, input.scopes, 'create a token with')
  const limits = await limitsOfNewCredential(w, input)
  const integrationId = await integrationOf(w, input.integration)
  if ('id' in input.integration) await requireOpensAllOf(w, integrationId, limits.fence)
  const secret = newSecret(SECRET_PREFIX.workspaceToken)
  const row = await w.trx
    .insertInto('tokens')
    .values({
      workspace_id: principal.workspaceId,
      id: newId('workspaceToken'),
      kind: 'workspace_token',
      person_id: null,
      integration_id: integrationId,
      name: input.name,
      scopes: [...input.scopes],
      made_with: lineageOf(w.caller.credential),
      project_ids: limits.fence === null ? null : [...limits.fence],
      valid_until: limits.validUntil,
      expires_at: limits.validUntil,
      secret_hash: hashSecret(secret),
      last4: lastFour(secret),
      created_at: w.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  await recordAudit(
    w.trx,
    w.actor,
    {
      action: 'workspace_token.created',
      resourceId: row.id,
      resourceType: 'workspace_token',
      before: null,
      after: auditedToken(row),
    },
    w.now,
  )
  return { row: { ...row, makers_live: true }, secret }
}

// The integration's id: an existing one of the workspace (else 404), or a new one by name.
async function integrationOf(w: WriteContext, integration: TokenIntegration): Promise<string> {
  const workspaceId = w.principal.workspaceId
  if ('id' in integration) {
    const found = await w.trx
      .selectFrom('integrations')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', integration.id)
      .executeTakeFirst()
    if (!found)
      throw new ProblemError('not_found', 'No such integration in this workspace.', {
        errors: [{ path: '/integration', message: 'names no integration of this workspace' }],
      })
    return found.id
  }
  const id = newId('integration')
  await w.trx
    .insertInto('integrations')
    .values({ workspace_id: workspaceId, id, name: integration.newName })
    .execute()
  return id
}

// Refuses a token for an integration that would open, within the token's fence, something the
// maker's own credential cannot: a 403 that says only that, never what.
async function requireOpensAllOf(w: WriteContext, integrationId: string, fence: Fence) {
  const integration = await resolvePrincipal(w.trx, {
    workspaceId: w.principal.workspaceId,
    actorId: integrationId,
    actorKind: 'integration',
    role: null,
  })
  const reaches = visibilityFor(fencedPrincipal(integration, fence))
  if (await opensAllOf(w.trx, w.caller.visibility, reaches)) return
  throw new ProblemError(
    'forbidden',
    'This integration can open things you cannot; its token must be made by someone who can open everything it can.',
  )
}
