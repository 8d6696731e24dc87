import type { Caller } from '../access/caller.ts'
import type { AuditActor } from './audit-writer.ts'

/** Where a request came from, as its transport knows it. */
export interface RequestOrigin {
  requestId: string | null
  ip: string | null
  userAgent: string | null
}

/** Who is acting, through which credential and from where, as the audit log records it. */
export function auditActorOf(caller: Caller, origin: RequestOrigin): AuditActor {
  const { principal, credential } = caller
  return {
    workspaceId: principal.workspaceId,
    actorId: principal.actorId,
    tokenId: credential.id,
    tokenKind: credential.kind,
    clientId: credential.clientId,
    ...origin,
  }
}
