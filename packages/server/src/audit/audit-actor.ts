import type { FastifyRequest } from 'fastify'
import { authenticated } from '../http/authentication.ts'
import type { AuditActor } from './audit-writer.ts'

/** Who is acting in a request, as the audit log records it. */
export function auditActorOf(request: FastifyRequest): AuditActor {
  const { principal, credential } = authenticated(request)
  const userAgent = request.headers['user-agent']
  return {
    workspaceId: principal.workspaceId,
    actorId: principal.actorId,
    tokenId: credential.id,
    tokenKind: credential.kind,
    clientId: credential.clientId,
    requestId: request.id,
    ip: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent : null,
  }
}
