import { kindOfId } from '../catalogue/catalogue.ts'
import type { Db } from '../db/database.ts'
import { idKind } from '../lib/ids.ts'
import { canAdminister } from './administration.ts'
import type { Caller } from './caller.ts'
import { visibleAmong } from './visibility.ts'

/*
 * What an audit entry may show of the resource it is about, decided when it is read
 * (docs/permissions.md, "The audit log"). Every entry stays listed for those who administer the
 * workspace; the values, the id and anything naming the resource are shown only when the reader
 * may open it now, by the same rules as every other read and within the token's read scopes.
 */

const CREDENTIAL_KINDS = new Set(['apiKey', 'workspaceToken', 'oauthGrant'])

/**
 * The ids among `ids` that the reader may see in the audit log: content and people through the
 * visibility module (and only of kinds the token may read); webhook endpoints only for their
 * owner, as everywhere else; credentials (API keys, workspace tokens, app grants) for those who
 * administer the workspace, who review them, and for their owner; invitations for those who
 * administer.
 */
export async function openInAudit(
  db: Db,
  caller: Caller,
  ids: Iterable<string | null>,
): Promise<Set<string>> {
  const { principal, credential } = caller
  const content: string[] = []
  const endpoints: string[] = []
  const credentials: string[] = []
  const invitations: string[] = []
  for (const id of new Set(ids)) {
    const kind = id === null ? null : idKind(id)
    if (id === null || kind === null) continue
    const scope = kindOfId(id)?.readScope
    if (scope !== undefined && credential.scopes.has(scope)) content.push(id)
    else if (kind === 'webhook') endpoints.push(id)
    else if (CREDENTIAL_KINDS.has(kind)) credentials.push(id)
    else if (kind === 'invitation') invitations.push(id)
  }
  const open = await visibleAmong(db, caller.visibility, content)
  if (endpoints.length > 0) {
    const owned = await db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('workspace_id', '=', principal.workspaceId)
      .where('owner_id', '=', principal.actorId)
      .where('id', 'in', endpoints)
      .execute()
    for (const row of owned) open.add(row.id)
  }
  // Invitations are administering: those who invite see them, as the invitations list does.
  if (canAdminister(principal)) for (const id of invitations) open.add(id)
  if (canAdminister(principal)) for (const id of credentials) open.add(id)
  else if (credentials.length > 0) {
    const own = await db
      .selectFrom('tokens')
      .select('id')
      .where('workspace_id', '=', principal.workspaceId)
      .where((eb) =>
        eb.or([
          eb('person_id', '=', principal.actorId),
          eb('integration_id', '=', principal.actorId),
        ]),
      )
      .where('id', 'in', credentials)
      .execute()
    for (const row of own) open.add(row.id)
  }
  return open
}

/** Whether a value names a resource that `openInAudit` judges (and so may have to withhold). */
export function namesAuditedResource(value: unknown): value is string {
  if (typeof value !== 'string') return false
  const kind = idKind(value)
  return (
    kind !== null &&
    (kindOfId(value) !== undefined ||
      kind === 'webhook' ||
      kind === 'invitation' ||
      CREDENTIAL_KINDS.has(kind))
  )
}
