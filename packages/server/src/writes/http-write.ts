import type { FastifyReply, FastifyRequest } from 'fastify'
import { authenticated } from '../api/authenticated.ts'
import { isDryRun } from '../api/dry-run.ts'
import type { AppDeps } from '../app-deps.ts'
import { auditActorOf } from '../audit/audit-actor.ts'
import { idempotencyKeyOf, requestFingerprint } from './idempotency-key.ts'
import { runWrite } from './run-write.ts'
import type { Command, WriteOutcome } from './write-request.ts'

/**
 * The HTTP face of the write path: hands the request's caller, key and fingerprint to `runWrite`
 * and sends what it answers, serialized by the route's response schema.
 */
export async function httpWrite(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  command: Command,
): Promise<void> {
  sendWriteOutcome(reply, await httpWriteOutcome(deps, request, reply, command))
}

/**
 * `httpWrite` without the sending: for a route that adds to its answer what may not be stored
 * with it (an invitation's link), once the write has committed.
 */
export async function httpWriteOutcome(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  command: Command,
): Promise<WriteOutcome> {
  const caller = authenticated(request)
  const userAgent = request.headers['user-agent']
  const route = request.routeOptions.url ?? request.url
  return runWrite(
    deps,
    {
      caller,
      actor: auditActorOf(caller, {
        requestId: request.id,
        ip: request.ip,
        userAgent: typeof userAgent === 'string' ? userAgent : null,
      }),
      idempotencyKey: idempotencyKeyOf(request.headers['idempotency-key']),
      fingerprint: requestFingerprint(`${request.method}\n${route}`, request.params, request.body),
      operation: route,
      dryRun: isDryRun(request),
      // The status picks the route's response schema, which drops undeclared fields.
      serialize: (result) => reply.code(result.status).serialize(result.body) as string,
    },
    command,
  )
}

/** Sends a write's outcome: its status and body, marked when it replays a stored answer. */
export function sendWriteOutcome(reply: FastifyReply, outcome: WriteOutcome): void {
  if (outcome.replayed) reply.header('idempotent-replayed', 'true')
  const type = outcome.status >= 400 ? 'application/problem+json' : 'application/json'
  reply.code(outcome.status).type(`${type}; charset=utf-8`).send(outcome.body)
}
