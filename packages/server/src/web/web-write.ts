import { randomBytes } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { spendBudget } from '../api/rate-budget.ts'
import type { AppDeps } from '../app-deps.ts'
import { auditActorOf } from '../audit/audit-actor.ts'
import type { AuditActor } from '../audit/audit-writer.ts'
import { idempotencyKeyOf, requestFingerprint } from '../writes/idempotency-key.ts'
import { runWrite } from '../writes/run-write.ts'
import type { Command, WriteOutcome } from '../writes/write-request.ts'
import { fromOwnPages, sameToken } from './csrf.ts'
import { webCallerFor } from './web-caller.ts'
import type { WebContext } from './web-context.ts'

/** A submitted form's fields, as @fastify/formbody parses them. */
export type FormBody = Record<string, string | string[] | undefined>

/** The form of a POST (an empty object when it has none). */
export function formOf(request: FastifyRequest): FormBody {
  const body = request.body
  return body && typeof body === 'object' ? (body as FormBody) : {}
}

/** Whether a POST came from one of our pages with the session's CSRF token (csrf.ts). */
export function isOwnForm(request: FastifyRequest, publicUrl: string): boolean {
  const web = request.web
  return !!web && fromOwnPages(request, publicUrl) && sameToken(formOf(request).csrf, web.csrf)
}

/**
 * Who a dashboard write is audited as: the session's person and credential, from this request,
 * marked `via: 'web'`. Call it on signed-in requests only.
 */
export function webAuditActor(request: FastifyRequest): AuditActor {
  const web = request.web as WebContext
  const userAgent = request.headers['user-agent']
  const origin = {
    requestId: request.id,
    ip: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent : null,
  }
  return { ...auditActorOf(web.caller, origin), via: 'web' }
}

/**
 * A fresh key for a form that issues a secret: resubmitting the same form (a reload, a double
 * click) replays the first answer through the write path's idempotency instead of writing twice.
 */
export function newFormKey(): string {
  return randomBytes(16).toString('base64url')
}

/**
 * The dashboard's face of the write path: the same `runWrite` as REST and MCP (one transaction,
 * audit entry, idempotency), spending the write budget like an API write. The caller holds the
 * scopes of the person's role (web-caller.ts). `stored` is what a replay of the form's key gets:
 * never a secret, which only this call's command returns. Throws the command's problems.
 */
export async function webWrite(
  deps: AppDeps,
  request: FastifyRequest,
  input: { operation: string; formKey?: unknown; stored?: (body: unknown) => unknown },
  command: Command,
): Promise<WriteOutcome> {
  const caller = webCallerFor(request.web as WebContext)
  const budget = { store: deps.rateLimits, config: deps.config, clock: deps.clock }
  const spent = await spendBudget(budget, caller, 'write')
  if (spent.exceeded) throw spent.exceeded
  // The CSRF token changes with each sign-in; the form's other fields make it the same request.
  const { csrf: _csrf, ...fields } = formOf(request)
  const key = typeof input.formKey === 'string' ? idempotencyKeyOf(input.formKey) : null
  return runWrite(
    deps,
    {
      caller,
      actor: webAuditActor(request),
      idempotencyKey: key,
      fingerprint: requestFingerprint(`web\n${input.operation}`, request.params, fields),
      operation: `web:${input.operation}`,
      serialize: (result) => JSON.stringify(input.stored ? input.stored(result.body) : {}),
    },
    command,
  )
}

/**
 * A dashboard write whose page needs what the command returned (an endpoint, a delivery), not a
 * stored answer: `webWrite` without a form key, handing back the command's own value.
 */
export async function webCommand<T>(
  deps: AppDeps,
  request: FastifyRequest,
  operation: string,
  command: (w: Parameters<Command>[0]) => Promise<T>,
): Promise<T> {
  let value: T | undefined
  await webWrite(deps, request, { operation }, async (w) => {
    value = await command(w)
    return { status: 200, body: null }
  })
  return value as T
}

/**
 * A form write that issues a secret (a key, a token): the secret and the new row on the first
 * answer; a resubmission of the form's key replays the write, and then shows neither again.
 */
export async function webIssue<Row>(
  deps: AppDeps,
  request: FastifyRequest,
  input: { operation: string; formKey: unknown },
  command: (w: Parameters<Command>[0]) => Promise<{ secret: string; row: Row }>,
): Promise<{ secret: string | null; row: Row | null }> {
  let issued: { secret: string; row: Row } | null = null
  const outcome = await webWrite(deps, request, input, async (w) => {
    issued = await command(w)
    return { status: 201, body: {} }
  })
  const made = issued as { secret: string; row: Row } | null
  return outcome.replayed || !made ? { secret: null, row: null } : made
}
