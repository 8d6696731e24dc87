import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppDeps } from '../app-deps.ts'
import { auditActorOf } from '../audit/audit-actor.ts'
import { authenticated } from '../http/authentication.ts'
import { ProblemError } from '../http/problem-catalogue.ts'
import { problemBody } from '../http/problem-response.ts'
import { idempotencyKeyOf, requestFingerprint } from './idempotency-key.ts'
import {
  claimKey,
  completeKey,
  type KeyClaim,
  releaseKey,
  type StoredResponse,
} from './idempotency-store.ts'
import type { WriteContext } from './write-context.ts'

/** A command's answer: its status and the record it returns. */
export interface WriteResult {
  status: 200 | 201 | 202
  body: unknown
}

/** A command: its whole change, written through the context's transaction. */
export type Command = (context: WriteContext) => Promise<WriteResult>

// Raised inside the transaction when another request took the key over: roll back, answer 409.
class LeaseLost extends Error {}

/**
 * Runs a write command the one safe way (contract §9): claims the Idempotency-Key if there is one
 * (or replays, or refuses), runs the command in one transaction with its stored response, and on
 * failure either stores the business 4xx (a retry gets the same answer) or releases the key (a
 * retry runs again). The response is serialized once; a replay sends those very bytes.
 */
export async function runWrite(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  command: Command,
): Promise<void> {
  const key = idempotencyKeyOf(request)
  const auth = authenticated(request)
  const now = deps.clock.now()
  let claim: KeyClaim | null = null
  if (key !== null) {
    const scope = {
      workspaceId: auth.principal.workspaceId,
      tokenId: auth.credential.id,
      key,
    }
    const outcome = await claimKey(deps.db, scope, requestFingerprint(request), deps.secrets, now)
    if (outcome.kind === 'replay') return sendStored(reply, outcome.response, true)
    if (outcome.kind === 'reused') {
      throw new ProblemError(
        'idempotency_key_reused',
        'This Idempotency-Key was used for a different request (another route or body) in the last 24 hours; use a new key.',
      )
    }
    if (outcome.kind === 'in_progress') throw keyInUse()
    claim = outcome.claim
  }

  try {
    const response = await deps.db.transaction().execute(async (trx) => {
      const context: WriteContext = {
        trx,
        deps: { ...deps, db: trx },
        principal: auth.principal,
        visibility: auth.visibility,
        readableTypes: auth.readableTypes,
        actor: auditActorOf(request),
        now,
      }
      const result = await command(context)
      reply.code(result.status)
      const stored = { status: result.status, body: reply.serialize(result.body) as string }
      if (claim && !(await completeKey(trx, claim, stored, deps.secrets))) throw new LeaseLost()
      await deps.writeHooks.beforeCommit?.(request.routeOptions.url ?? request.url)
      return stored
    })
    // The outbox may hold a new event: an in-process dispatcher picks it up now, not at its poll.
    deps.writeHooks.afterCommit?.()
    return sendStored(reply, response, false)
  } catch (error) {
    if (error instanceof LeaseLost) throw keyInUse()
    if (claim) {
      const stored = error instanceof ProblemError && error.status < 500
      // A business 4xx is the request's answer: store it, so a retry gets it again. Anything
      // else changed nothing and may go better next time: release the key.
      if (stored) {
        const body = JSON.stringify(problemBody(error, request.id))
        await completeKey(deps.db, claim, { status: error.status, body }, deps.secrets)
      } else {
        await releaseKey(deps.db, claim).catch(() => undefined)
      }
    }
    throw error
  }
}

function keyInUse(): ProblemError {
  return new ProblemError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still running; retry after it finishes.',
    { headers: { 'retry-after': '1' } },
  )
}

// Sends the response as stored: its status and its very bytes.
function sendStored(reply: FastifyReply, response: StoredResponse, replayed: boolean): void {
  if (replayed) reply.header('idempotent-replayed', 'true')
  const type = response.status >= 400 ? 'application/problem+json' : 'application/json'
  reply.code(response.status).type(`${type}; charset=utf-8`).send(response.body)
}
