import { auditRow } from '../audit/audit-writer.ts'
import type { DirectoryEventType } from '../catalogue/verbs.ts'
import type { FieldChange } from '../db/tables/activity.table.ts'
import { newId } from '../lib/ids.ts'
import { eventData, type WriteContext } from './write-context.ts'

/** What a command records about a change to the workspace's people or teams. */
export interface DirectoryChange {
  /** The event type (catalogue/kinds.ts, a `directory` verb). */
  verb: DirectoryEventType
  /** The person or team the change is about: the event's subject, which decides who hears it. */
  subjectId: string
  subjectType: 'person' | 'team'
  /** The fields of the subject that changed, for the event's `previous_attributes`. */
  changes?: Record<string, FieldChange>
  audit: {
    resourceId: string
    resourceType: string
    before: Record<string, unknown> | null
    after: Record<string, unknown> | null
  }
  /** The subject as the event carries it. */
  eventObject: Record<string, unknown>
}

/**
 * Records a change to a person or a team in the transaction that made it: its audit entry with
 * the diff, and its outbox event, which webhooks deliver to the endpoints whose owner may see the
 * subject. Unlike `recordChange` it writes no activity entry: the stream and the change feed hold
 * content, whose visibility the resource index decides, and people and teams are the principals
 * that visibility is made of (docs/webhooks.md, "Directory events").
 */
export async function recordDirectoryChange(
  // No more than this: joining records its change without a caller (web/join.routes.ts).
  context: Pick<WriteContext, 'trx' | 'actor' | 'now'>,
  change: DirectoryChange,
): Promise<void> {
  const { trx, actor, now } = context
  const data = eventData(change.eventObject, change.changes ?? {})
  await trx
    .insertInto('events')
    .values({
      workspace_id: actor.workspaceId,
      id: newId('event'),
      type: change.verb,
      subject_id: change.subjectId,
      subject_type: change.subjectType,
      actor_id: actor.actorId,
      data: JSON.stringify(data),
      created_at: now,
      dispatched_at: null,
    })
    .execute()
  const { row } = auditRow(actor, { action: change.verb, ...change.audit }, now)
  await trx.insertInto('audit_log').values(row).execute()
}
