import type { Actor } from '../access/principal.ts'
import {
  expandScopes,
  READ_SCOPE_OF_ID_KIND,
  READ_SCOPE_OF_TYPE,
  type Scope,
} from '../access/scopes.ts'
import { type Visibility, visibilityFor, visibleAmong } from '../access/visibility.ts'
import type { AppDeps } from '../app-deps.ts'
import type { Db } from '../db/database.ts'
import type { WebhookEndpointsTable } from '../db/tables/webhook.table.ts'
import { idKind } from '../lib/ids.ts'

/**
 * An endpoint receives what its owner (the person or integration whose token created it) may open
 * at delivery time, within the scopes that token had: the same visibility module as every read.
 */
export interface OwnerAccess {
  readonly visibility: Visibility
  readonly scopes: ReadonlySet<Scope>
}

type EndpointOwner = Pick<
  WebhookEndpointsTable,
  'workspace_id' | 'owner_id' | 'owner_kind' | 'owner_scopes'
>

/** The owner's current access, or null when the owner has left the workspace. */
export async function ownerAccess(
  deps: AppDeps,
  db: Db,
  endpoint: EndpointOwner,
): Promise<OwnerAccess | null> {
  const ws = endpoint.workspace_id
  const workspace = await db
    .selectFrom('workspaces')
    .select('acl_epoch')
    .where('id', '=', ws)
    .executeTakeFirstOrThrow()
  let actor: Actor
  if (endpoint.owner_kind === 'person') {
    const person = await db
      .selectFrom('people')
      .select('role')
      .where('workspace_id', '=', ws)
      .where('id', '=', endpoint.owner_id)
      .executeTakeFirst()
    if (!person) return null
    actor = { workspaceId: ws, actorId: endpoint.owner_id, actorKind: 'person', role: person.role }
  } else {
    const integration = await db
      .selectFrom('integrations')
      .select('id')
      .where('workspace_id', '=', ws)
      .where('id', '=', endpoint.owner_id)
      .executeTakeFirst()
    if (!integration) return null
    actor = { workspaceId: ws, actorId: endpoint.owner_id, actorKind: 'integration', role: null }
  }
  const principal = await deps.principals.get(db, actor, String(workspace.acl_epoch))
  return { visibility: visibilityFor(principal), scopes: expandScopes(endpoint.owner_scopes) }
}

/** Whether the owner's scopes read this subject type (task, comment, okr, canvas). */
export function scopeReads(access: OwnerAccess, subjectType: string): boolean {
  const scope = READ_SCOPE_OF_TYPE[subjectType as keyof typeof READ_SCOPE_OF_TYPE]
  return scope !== undefined && access.scopes.has(scope)
}

/** The ids among `ids` the owner may open and whose kind its scopes read. */
export async function openableLinks(
  db: Db,
  access: OwnerAccess,
  ids: Iterable<string>,
): Promise<Set<string>> {
  const readable = [...ids].filter((id) => {
    const kind = idKind(id)
    const scope = kind
      ? READ_SCOPE_OF_ID_KIND[kind as keyof typeof READ_SCOPE_OF_ID_KIND]
      : undefined
    return scope !== undefined && access.scopes.has(scope)
  })
  return visibleAmong(db, access.visibility, readable)
}
