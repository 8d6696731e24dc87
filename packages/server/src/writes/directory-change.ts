import { auditRow } from '../audit/audit-writer.ts'
import { ACTIVITY_VERBS, type ActivityVerb, type EventType } from '../catalogue/verbs.ts'
import type { FieldChange } from '../db/tables/activity.table.ts'
import { newId } from '../lib/ids.ts'
import { currentTraceParent } from '../lib/trace-parent.ts'
import { eventData, recordChange, type WriteContext } from './write-context.ts'

/** An event type about a person or a team (catalogue/kinds.ts). */
export type DirectoryVerb = Extract<EventType, `person.${string}` | `team.${string}`>

/** What a command records about a change to the workspace's people or teams. */
export interface DirectoryChange {
  verb: DirectoryVerb
  /** The person or team the change is about (the invitation, for `person.invited`). */
  subjectId: string
  subjectType: 'person' | 'team'
  /** The fields of the subject that changed: the activity entry's and the event's diff. */
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
 * Records a change to a person or a team in the transaction that made it. Most are activity
 * entries like any change (`recordChange`), with no project: the stream and the change feed test
 * them by the directory's own rules (`directoryActivity`, access/visibility.ts). An invitation
 * is not: it is for those who administer, so `person.invited` is only its audit entry and its
 * outbox event (docs/webhooks.md, "Directory events").
 */
export async function recordDirectoryChange(
  // No more than this: joining records its change without a caller (web/join.routes.ts).
  context: Pick<WriteContext, 'trx' | 'actor' | 'now'>,
  change: DirectoryChange,
): Promise<void> {
  if (isActivityVerb(change.verb))
    return recordChange(context, { ...change, verb: change.verb, projectId: null })
  const { trx, actor, now } = context
  await trx
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
    .execute()
  const { row } = auditRow(actor, { action: change.verb, ...change.audit }, now)
  await trx.insertInto('audit_log').values(row).execute()
}

function isActivityVerb(verb: DirectoryVerb): verb is DirectoryVerb & ActivityVerb {
  return (ACTIVITY_VERBS as readonly string[]).includes(verb)
}
