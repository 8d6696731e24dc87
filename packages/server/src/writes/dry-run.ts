import { linkedIds, redactLinks } from '../access/redact-links.ts'
import { visibleAmong } from '../access/visibility.ts'
import { presentActivity } from '../activity/activity.present.ts'
import { findActivity } from '../activity/activity.queries.ts'
import type { AppDeps } from '../app-deps.ts'
import { idKind } from '../lib/ids.ts'
import { recordingMinted } from '../lib/minted-values.ts'
import { nullMinted } from './null-minted.ts'
import { type WriteContext, writeContext } from './write-context.ts'
import type { Command, WriteOutcome, WriteRequest } from './write-request.ts'

/** What a dry run answers (docs/api.md, "Dry runs"). */
export interface DryRunAnswer {
  dry_run: true
  /** The body the write would answer, with ids it would assign and secrets as null. */
  result: unknown
  /** The activity entries it would record, as `GET /v1/activity` shows them to the caller. */
  activity: unknown[]
  /** The webhook events it would emit: `type` and `data` as docs/webhooks.md describes them. */
  events: { type: string; data: unknown }[]
}

// Thrown after the capture, so the transaction rolls back whatever the command wrote.
class DryRunRollback extends Error {
  readonly answer: DryRunAnswer
  constructor(answer: DryRunAnswer) {
    super('dry run: rolled back')
    this.answer = answer
  }
}

/**
 * Runs a write command as a dry run: the very command of the real write, in a transaction that
 * always rolls back, so validation and business rules are the same code and their 4xx the same
 * answers. Before rolling back it reads what the command wrote (the activity entries and outbox
 * events whose ids it minted). No Idempotency-Key is read or claimed, no write hook runs.
 */
export async function dryRunWrite(
  deps: AppDeps,
  request: WriteRequest,
  command: Command,
): Promise<WriteOutcome> {
  const now = deps.clock.now()
  const { value: answer, minted } = await recordingMinted(async (sofar) => {
    try {
      await deps.db.transaction().execute(async (trx) => {
        const context = writeContext(deps, trx, request.caller, request.actor, now)
        const result = await command(context)
        // The result as the route serializes it: what the real write would send.
        const sent = JSON.parse(request.serialize(result)) as unknown
        throw new DryRunRollback({
          dry_run: true,
          result: sent,
          ...(await captured(context, sofar)),
        })
      })
    } catch (error) {
      if (error instanceof DryRunRollback) return error.answer
      throw error
    }
    throw new Error('a dry run must roll back')
  })
  return { status: 200, body: JSON.stringify(nullMinted(answer, minted)), replayed: false }
}

// The activity entries and events the command wrote, read back inside its transaction.
async function captured(
  w: WriteContext,
  minted: ReadonlySet<string>,
): Promise<Omit<DryRunAnswer, 'dry_run' | 'result'>> {
  const ids = [...minted]
  const activityIds = ids.filter((id) => idKind(id) === 'activity')
  const eventIds = ids.filter((id) => idKind(id) === 'event')
  const rows = await findActivity(w.trx, w.visibility, w.readableKinds, activityIds)
  const events =
    eventIds.length === 0
      ? []
      : await w.trx
          .selectFrom('events')
          .select(['id', 'type', 'data'])
          .where('workspace_id', '=', w.principal.workspaceId)
          .where('id', 'in', eventIds)
          .orderBy('id')
          .execute()
  // An event carries every link; the caller is shown those it may open, as a delivery would.
  const open = await visibleAmong(
    w.trx,
    w.visibility,
    events.flatMap((event) => [...linkedIds(event.data)]),
  )
  return {
    activity: rows.map((row) => presentActivity(row, w.deps.urls)),
    events: events.map((event) => ({ type: event.type, data: redactLinks(event.data, open) })),
  }
}
