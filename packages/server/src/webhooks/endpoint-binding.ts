import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { Caller } from '../access/caller.ts'
import { credentialLive } from '../access/credential-liveness.ts'
import { type Reach, reachOf, reachOfBoth } from '../access/credential-reach.ts'
import { narrowedFenceSql } from '../access/fence.ts'
import { expandScopes } from '../access/scopes.ts'
import { type AuditActor, recordAudit } from '../audit/audit-writer.ts'
import type { Db } from '../db/database.ts'
import { disableEndpoint } from './endpoint-health.ts'

/*
 * An endpoint is bound to the credential that created or last changed it (docs/webhooks.md,
 * "Endpoints end with their credential"): it receives within what that credential reaches, and
 * only while it works.
 * A dashboard session is not such a credential: it ends when its person signs out, minutes after
 * the endpoint was made. An endpoint created or re-enabled on the dashboard is bound to its person
 * instead (`credential_id` = `owner_id`) and lives as long as that person may own it.
 */

/** What an endpoint created or re-enabled by `caller` is bound to (see above). */
export function bindingOf(caller: Caller): string {
  return caller.credential.kind === 'web_session' ? caller.principal.actorId : caller.credential.id
}

/** The columns that bind an endpoint: to its creator's credential, with what that reaches. */
export interface EndpointBinding {
  credential_id: string
  owner_scopes: string[]
  owner_project_ids: string[] | null
}

/** The binding of an endpoint `caller` creates: everything the caller's credential reaches. */
export function newBinding(caller: Caller): EndpointBinding {
  return bindingColumns(caller, reachOf(caller.credential))
}

/**
 * The binding of an endpoint `caller` changes (access/credential-reach.ts): it moves to the
 * caller's credential, and keeps only what both that credential and the endpoint reach, so a
 * change never widens an endpoint and never outlives the credential that made it.
 */
export function changedBinding(
  caller: Caller,
  endpoint: { owner_scopes: string[]; owner_project_ids: string[] | null },
): EndpointBinding {
  const reach = { scopes: expandScopes(endpoint.owner_scopes), fence: endpoint.owner_project_ids }
  return bindingColumns(caller, reachOfBoth(reach, reachOf(caller.credential)))
}

function bindingColumns(caller: Caller, reach: Reach): EndpointBinding {
  return {
    credential_id: bindingOf(caller),
    owner_scopes: [...reach.scopes].sort(),
    owner_project_ids: reach.fence === null ? null : [...reach.fence],
  }
}

/** SQL: the endpoint aliased `e` is bound to its owner, or to a credential that works at `now`. */
export function bindingLive(now: Date): RawBuilder<SqlBool> {
  return sql<SqlBool>`(e.credential_id = e.owner_id or ${credentialLive('e.credential_id', 'e.workspace_id', now)})`
}

/** Moves the endpoints bound to a rotated key to the key that replaces it. */
export async function moveBoundEndpoints(
  db: Db,
  workspaceId: string,
  from: string,
  to: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ credential_id: to, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('credential_id', '=', from)
    .where('deleted_at', 'is', null)
    .execute()
}

/** Narrows to `fence` what the endpoints bound to these credentials reach. */
export async function narrowBoundEndpoints(
  db: Db,
  workspaceId: string,
  credentialIds: readonly string[],
  fence: readonly string[],
): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ owner_project_ids: narrowedFenceSql('owner_project_ids', fence) })
    .where('workspace_id', '=', workspaceId)
    .where('credential_id', 'in', credentialIds)
    .where('deleted_at', 'is', null)
    .execute()
}

/**
 * Disables the live endpoints bound to credentials that were just revoked (reason
 * `credential_revoked`; their waiting deliveries are skipped), audited as the revoker's doing.
 */
export async function disableBoundEndpoints(
  db: Db,
  actor: AuditActor,
  credentialIds: readonly string[],
  now: Date,
): Promise<void> {
  if (credentialIds.length === 0) return
  const endpoints = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'url'])
    .where('workspace_id', '=', actor.workspaceId)
    .where('credential_id', 'in', credentialIds)
    .where('status', '=', 'active')
    .where('deleted_at', 'is', null)
    .execute()
  for (const endpoint of endpoints) {
    if (!(await disableEndpoint(db, actor.workspaceId, endpoint.id, 'credential_revoked', now)))
      continue
    await recordAudit(
      db,
      actor,
      {
        action: 'webhook.disabled',
        resourceId: endpoint.id,
        resourceType: 'webhook',
        before: { status: 'active', disabled_reason: null },
        after: { status: 'disabled', disabled_reason: 'credential_revoked' },
      },
      now,
    )
  }
}
