import { type Compilable, type RawBuilder, sql } from 'kysely'
import type { Caller } from '../access/caller.ts'
import type { Principal } from '../access/principal.ts'
import { INDEX_WRITTEN, indexInserted } from '../access/resource-index.ts'

import type { Visibility } from '../access/visibility.ts'
import type { AppDeps } from '../app-deps.ts'
import { type AuditActor, auditRow } from '../audit/audit-writer.ts'
import { kindOfId } from '../catalogue/catalogue.ts'
import type { ActivityVerb } from '../catalogue/verbs.ts'
import type { Db } from '../db/database.ts'
import { PREPARED } from '../db/prepared-statements.ts'
import type { FieldChange } from '../db/tables/activity.table.ts'
import { newId } from '../lib/ids.ts'
import { currentTraceParent } from '../lib/trace-parent.ts'
import { activitySearchText } from './activity-text.ts'

/**
 * Everything a command needs: the transaction it writes in, who acts, what they may open, and
 * one "now" for every timestamp of the change. `deps.db` is the transaction too, so readers and
 * presenters called with `deps` see the uncommitted change.
 */
export interface WriteContext {
  readonly trx: Db
  readonly deps: AppDeps
  /** Who writes: the principal and the credential it presented. */
  readonly caller: Caller
  readonly principal: Principal
  readonly visibility: Visibility
  readonly readableKinds: string[]
  readonly actor: AuditActor
  readonly now: Date
}

/** The context of a command that writes in `trx` for `caller`, at `now`. */
export function writeContext(
  deps: AppDeps,
  trx: Db,
  caller: Caller,
  actor: AuditActor,
  now: Date,
): WriteContext {
  return {
    trx,
    deps: { ...deps, db: trx },
    caller,
    principal: caller.principal,
    visibility: caller.visibility,
    readableKinds: caller.readableKinds,
    actor,
    now,
  }
}

/** What a command records about its change, beside the change itself. */
export interface ChangeRecord {
  /** The activity verb; for the event types (`EVENT_TYPES`) also the outbox event's type. */
  verb: ActivityVerb
  subjectId: string
  subjectType: 'project' | 'task' | 'comment' | 'okr' | 'canvas' | 'team' | 'person'
  projectId: string | null
  /** A record inside the subject (the check-in of `okr.checkin`). */
  objectId?: string | null
  /** Other resources the entry mentions: it is shown only to those who may open them all. */
  refs?: readonly (string | null)[]
  /** The subject's fields that changed, as activity shows them (never hidden ids). */
  changes?: Record<string, FieldChange>
  audit: {
    resourceId: string
    resourceType: string
    before: Record<string, unknown> | null
    after: Record<string, unknown> | null
  }
  /** The subject as the event carries it, every link included; null for verbs with no event. */
  eventObject: Record<string, unknown> | null
}

/**
 * Records a change in the transaction that made it: the activity entry, the audit entry with its
 * diff and, for the event types, the outbox event. All commit with the change or not at all,
 * and all are written by one statement. The entry's change-feed position is given once it has
 * committed (`numberCommittedChanges`, docs/changes.md), so writers never wait on one another.
 */
export async function recordChange(
  // No more than this: joining records its change without a caller (web/join.routes.ts).
  context: Pick<WriteContext, 'trx' | 'actor' | 'now'>,
  change: ChangeRecord,
): Promise<void> {
  const recorded = changeRecorded(context, change)
  await sql`with ${recorded.ctes} ${recorded.audit} ${PREPARED}`.execute(context.trx)
}

/** The name by which `insertRecorded`'s answer reads the row the statement inserted. */
export const INSERTED_ROW = 'row_inserted'

/**
 * Inserts a resource's row and records its creation in one statement: the row, its
 * resource-index row and title words (compiled from the inserted row by the kind's own rule,
 * docs/architecture.md, "Writes in one statement"), and what `recordChange` writes. One round
 * trip where there were three, and nothing another statement could see half done. `answer`, a
 * select from `INSERTED_ROW`, is what the statement returns: the row as its writer sees it, so
 * that reading it back costs no statement of its own.
 */
export async function insertRecorded<Answer = never>(
  context: WriteContext,
  /** The insert of the row, returning it whole (`.returningAll()`). */
  insert: Compilable,
  change: ChangeRecord,
  answer?: RawBuilder<Answer>,
): Promise<Answer[]> {
  const kind = kindOfId(change.subjectId)
  if (!kind?.index) throw new Error(`${change.subjectId} is not of an indexed kind`)
  const ws = context.actor.workspaceId
  const recorded = changeRecorded(context, change)
  // The statement also says how many index rows it wrote: one, unless the kind's rule read its
  // table (where the new row is not yet visible) instead of `source`.
  const indexed = sql`(select count(*)::int from ${sql.table(INDEX_WRITTEN)}) as index_rows_written`
  const { rows } = await sql<Answer & { index_rows_written: number }>`
    with ${sql.table(INSERTED_ROW)} as (${insert}),
      ${indexInserted(kind.index, ws, INSERTED_ROW)},
      ${recorded.ctes}, audit_written as (${recorded.audit})
    ${answer ? sql`select answer.*, ${indexed} from (${answer}) answer` : sql`select ${indexed}`}
    ${PREPARED}`.execute(context.trx)
  if (rows[0]?.index_rows_written !== 1)
    throw new Error(`the index rule of ${kind.name} compiled no row from the row inserted`)
  return answer ? rows.map(({ index_rows_written: _, ...row }) => row as Answer) : []
}

// A change's activity and outbox entries as common table expressions, and the insert of its audit
// entry: the end of `recordChange`'s statement, one more expression of `insertRecorded`'s.
function changeRecorded(
  context: Pick<WriteContext, 'trx' | 'actor' | 'now'>,
  change: ChangeRecord,
): { ctes: RawBuilder<unknown>; audit: Compilable } {
  const { trx, actor, now } = context
  const refs = [
    ...new Set(
      [change.projectId, ...(change.refs ?? [])].filter(
        (ref): ref is string => ref !== null && ref !== change.subjectId,
      ),
    ),
  ]
  const activity = trx
    .insertInto('activity')
    .values({
      workspace_id: actor.workspaceId,
      id: newId('activity'),
      verb: change.verb,
      actor_id: actor.actorId,
      subject_id: change.subjectId,
      subject_type: change.subjectType,
      object_id: change.objectId ?? null,
      project_id: change.projectId,
      ref_ids: refs,
      changes: JSON.stringify(change.changes ?? {}),
      search_text: activitySearchText(change.verb, change.changes),
      created_at: now,
    })
    .returning('id')
  const event = change.eventObject
    ? trx
        .insertInto('events')
        .values({
          workspace_id: actor.workspaceId,
          id: newId('event'),
          type: change.verb,
          subject_id: change.subjectId,
          subject_type: change.subjectType,
          actor_id: actor.actorId,
          data: JSON.stringify(eventData(change.eventObject, change.changes ?? {})),
          created_at: now,
          dispatched_at: null,
          trace_parent: currentTraceParent(),
        })
        .returning('id')
    : null
  const { row: audit } = auditRow(actor, { action: change.verb, ...change.audit }, now)
  return {
    ctes: sql`activity_written as (${activity})${event ? sql`, event_written as (${event})` : sql``}`,
    audit: trx.insertInto('audit_log').values(audit),
  }
}

/**
 * An event's data: its object and, as Stripe's events do, `previous_attributes`: the values the
 * object's changed fields had before (docs/webhooks.md, "What changed"). Left out where nothing
 * of the object itself changed (a creation), or where the changes are of another record than
 * the object (a check-in's event carries the check-in, its objective's progress changed).
 */
export function eventData(
  object: Record<string, unknown>,
  changes: Record<string, FieldChange>,
): { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> } {
  const fields = Object.keys(changes)
  if (fields.length === 0 || !fields.every((field) => field in object)) return { object }
  return {
    object,
    previous_attributes: Object.fromEntries(fields.map((field) => [field, changes[field]?.from])),
  }
}
