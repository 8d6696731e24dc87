import { randomUUID } from 'node:crypto'
import { problemBody } from '../api/problem-body.ts'
import { ProblemError } from '../api/problem-catalogue.ts'
import { databaseUnavailable } from '../api/problems.ts'
import type { AppDeps } from '../app-deps.ts'
import { dryRunWrite } from './dry-run.ts'
import {
  claimKey,
  completeKey,
  IDEMPOTENCY_RENEW_MS,
  type KeyClaim,
  renewKey,
} from './idempotency-store.ts'
import { keyReleasesOf } from './key-releases.ts'
import { writeContext } from './write-context.ts'
import type { Command, WriteOutcome, WriteRequest } from './write-request.ts'

// Raised inside the transaction when another request took the key over: roll back, answer 409.
class LeaseLost extends Error {}

/**
 * Runs a write command the one safe way (docs/api.md, "Idempotency keys"): claims the
 * Idempotency-Key if there is one (or replays, or refuses), runs the command in one transaction
 * with its stored answer, and on failure either stores the business 4xx (a retry gets the same
 * answer) or releases the key (a retry runs again). Throws problems it does not store.
 */
export async function runWrite(
  deps: AppDeps,
  request: WriteRequest,
  command: Command,
): Promise<WriteOutcome> {
  if (request.dryRun) return dryRunWrite(deps, request, command)
  const { caller, idempotencyKey: key } = request
  const now = deps.clock.now()
  let claim: KeyClaim | null = null
  if (key !== null) {
    const scope = { workspaceId: caller.principal.workspaceId, tokenId: caller.credential.id, key }
    const releases = keyReleasesOf(deps.db, deps.clock)
    await releases.drain()
    // This key's last attempt failed with the database away and its claim is not given back yet:
    // the database is still away, and the retry is told so rather than that the key is busy.
    if (releases.isPending(scope)) throw databaseUnavailable()
    const lockToken = randomUUID()
    const outcome = await claimKey(
      deps.db,
      scope,
      request.fingerprint,
      deps.secrets,
      now,
      lockToken,
    ).catch(async (error: unknown) => {
      // The claim may have committed before the connection ended: give it back all the same.
      await releases.release({ ...scope, lockToken })
      throw error
    })
    if (outcome.kind === 'replay') return { ...outcome.response, replayed: true }
    if (outcome.kind === 'reused') {
      throw new ProblemError(
        'idempotency_key_reused',
        'This Idempotency-Key was used for a different request (another route or body) in the last 24 hours; use a new key.',
      )
    }
    if (outcome.kind === 'in_progress') throw keyInUse()
    claim = outcome.claim
  }

  const renewal = claim ? keepClaim(deps, claim) : null
  try {
    const response = await deps.db.transaction().execute(async (trx) => {
      const context = writeContext(deps, trx, caller, request.actor, now)
      const result = await command(context)
      const stored = { status: result.status, body: request.serialize(result) }
      // From here the key's row is locked by this transaction: nobody can take it over.
      renewal?.stop()
      if (claim && !(await completeKey(trx, claim, stored, deps.secrets))) throw new LeaseLost()
      await deps.writeHooks.beforeCommit?.(request.operation)
      return stored
    })
    deps.health.written()
    // The outbox may hold a new event: an in-process dispatcher picks it up now, not at its poll.
    deps.writeHooks.afterCommit?.()
    deps.changeSignal.notify(request.actor.workspaceId)
    return { ...response, replayed: false }
  } catch (error) {
    if (error instanceof LeaseLost) throw keyInUse()
    if (claim) {
      // A business 4xx is the request's answer: store it, so a retry gets it again. Anything
      // else changed nothing and may go better next time: release the key.
      if (error instanceof ProblemError && error.status < 500) {
        const body = JSON.stringify(
          problemBody(error, request.actor.requestId ?? '', deps.config.publicUrl),
        )
        await completeKey(deps.db, claim, { status: error.status, body }, deps.secrets)
      } else {
        await keyReleasesOf(deps.db, deps.clock).release(claim)
      }
    }
    throw error
  } finally {
    renewal?.stop()
  }
}

/**
 * Renews a claim every IDEMPOTENCY_RENEW_MS while its write runs, so a write slower than the
 * lease keeps its key; a quick write never renews. A renewal that fails (the database away) is
 * tried at the next tick.
 */
function keepClaim(deps: AppDeps, claim: KeyClaim): { stop(): void } {
  const timer = setInterval(() => {
    renewKey(deps.db, claim, deps.clock.now()).catch(() => undefined)
  }, IDEMPOTENCY_RENEW_MS)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}

function keyInUse(): ProblemError {
  return new ProblemError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still running; retry after it finishes.',
    { headers: { 'retry-after': '1' } },
  )
}
