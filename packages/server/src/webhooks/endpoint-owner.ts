import { type Actor, fencedPrincipal, type Role } from '../access/principal.ts'
import { expandScopes, readsKindOfId } from '../access/scopes.ts'
import { type Visibility, visibilityFor, visibleAmong } from '../access/visibility.ts'
import type { AppDeps } from '../app-deps.ts'
import { kindNamed } from '../catalogue/catalogue.ts'
import type { Scope } from '../catalogue/scopes.ts'
import type { Db } from '../db/database.ts'
import type { WebhookEndpointsTable } from '../db/tables/webhook.table.ts'

/**
 * An endpoint receives what its owner (the person or integration whose token created it) may open
 * at delivery time, within the scopes and the fence that token had: the same visibility module as
 * every read.
 */
export interface OwnerAccess {
  readonly visibility: Visibility
  readonly scopes: ReadonlySet<Scope>
}

type EndpointOwner = Pick<
  WebhookEndpointsTable,
  'workspace_id' | 'owner_id' | 'owner_kind' | 'owner_scopes' | 'owner_project_ids'
>

/** What decides an owner's access, as one query can read it beside the endpoint. */
export interface OwnerFacts {
  aclEpoch: string
  /** The owner's role if a person, 'integration' if an integration, null if gone. */
  ownerRole: Role | 'integration' | null
}

/** The owner's current access, or null when the owner has left the workspace. */
export async function ownerAccess(
  deps: AppDeps,
  db: Db,
  endpoint: EndpointOwner,
): Promise<OwnerAccess | null> {
  const facts = await db
    .selectFrom('workspaces as w')
    .leftJoin('people as p', (join) =>
      join.onRef('p.workspace_id', '=', 'w.id').on('p.id', '=', endpoint.owner_id),
    )
    .leftJoin('integrations as i', (join) =>
      join.onRef('i.workspace_id', '=', 'w.id').on('i.id', '=', endpoint.owner_id),
    )
    .select(['w.acl_epoch', 'p.role', 'p.deactivated_at', 'i.id as integration_id'])
    .where('w.id', '=', endpoint.workspace_id)
    .executeTakeFirstOrThrow()
  return ownerAccessFrom(deps, db, endpoint, {
    aclEpoch: String(facts.acl_epoch),
    // A deactivated owner has left: as for one who is gone, their endpoints hear nothing.
    ownerRole:
      facts.deactivated_at === null
        ? (facts.role ?? (facts.integration_id ? 'integration' : null))
        : null,
  })
}

/** The owner's access from facts already read (the dispatcher reads them with the delivery). */
export async function ownerAccessFrom(
  deps: AppDeps,
  db: Db,
  endpoint: EndpointOwner,
  facts: OwnerFacts,
): Promise<OwnerAccess | null> {
  const role = facts.ownerRole
  if (role === null || (role === 'integration') !== (endpoint.owner_kind === 'integration'))
    return null
  const actor: Actor = {
    workspaceId: endpoint.workspace_id,
    actorId: endpoint.owner_id,
    actorKind: endpoint.owner_kind,
    role: role === 'integration' ? null : role,
  }
  const principal = await deps.principals.get(db, actor, facts.aclEpoch)
  const fenced = fencedPrincipal(principal, endpoint.owner_project_ids)
  return { visibility: visibilityFor(fenced), scopes: expandScopes(endpoint.owner_scopes) }
}

/** Whether the owner's scopes read this subject type (task, comment, okr, canvas). */
export function scopeReads(access: OwnerAccess, subjectType: string): boolean {
  const scope = kindNamed(subjectType)?.readScope
  return scope !== undefined && access.scopes.has(scope)
}

/** The ids among `ids` the owner may open and whose kind its scopes read. */
export async function openableLinks(
  db: Db,
  access: OwnerAccess,
  ids: Iterable<string>,
): Promise<Set<string>> {
  const readable = [...ids].filter((id) => readsKindOfId(access.scopes, id))
  return visibleAmong(db, access.visibility, readable)
}
