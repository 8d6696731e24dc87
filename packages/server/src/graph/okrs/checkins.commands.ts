import type { Static } from 'typebox'
import { syncResourceIndex } from '../../access/resource-index.ts'
import { notFound } from '../../api/problem-catalogue.ts'
import { idKind, newId } from '../../lib/ids.ts'
import { ruleBroken } from '../../writes/business-rule.ts'
import { recordChange, type WriteContext } from '../../writes/write-context.ts'
import { presentCheckin, presentKeyResult } from './okr-parts.present.ts'
import { findKeyResult } from './okr-parts.queries.ts'
import {
  type CheckinCreated,
  type CreateCheckinBody,
  LARGEST_CHECKIN_VALUE,
} from './okr-parts.schemas.ts'
import { objectiveProgress } from './okr-progress.ts'

/**
 * Logs a check-in on a key result the caller may open: sets the key result's current value and
 * recomputes its objective's progress, in one transaction with the check-in.
 */
export async function createCheckin(
  w: WriteContext,
  input: Static<typeof CreateCheckinBody>,
): Promise<Static<typeof CheckinCreated>> {
  const ws = w.principal.workspaceId
  const keyResult =
    idKind(input.key_result_id) === 'key_result'
      ? await findKeyResult(w.trx, w.visibility, input.key_result_id)
      : undefined
  if (!keyResult) throw notFound('/key_result_id')
  if (!Number.isFinite(input.value) || Math.abs(input.value) > LARGEST_CHECKIN_VALUE)
    throw ruleBroken(
      '/value',
      `must be a finite number between -${LARGEST_CHECKIN_VALUE} and ${LARGEST_CHECKIN_VALUE}`,
    )

  const objective = await w.trx
    .selectFrom('objectives')
    .select(['id', 'project_id', 'progress'])
    .where('workspace_id', '=', ws)
    .where('id', '=', keyResult.objective_id)
    .executeTakeFirstOrThrow()
  const siblings = await w.trx
    .selectFrom('key_results')
    .select(['id', 'start', 'target', 'current'])
    .where('workspace_id', '=', ws)
    .where('objective_id', '=', objective.id)
    .execute()
  const progress = objectiveProgress(
    siblings.map((kr) => (kr.id === keyResult.id ? { ...kr, current: input.value } : kr)),
  )
  const checkin = {
    workspace_id: ws,
    id: newId('checkin'),
    key_result_id: keyResult.id,
    objective_id: objective.id,
    value: input.value,
    confidence: input.confidence ?? null,
    note: input.note ?? '',
    author_id: w.principal.actorId,
    created_at: w.now,
  }
  await w.trx.insertInto('checkins').values(checkin).execute()
  await w.trx
    .updateTable('key_results')
    .set({ current: input.value, updated_at: w.now })
    .where('workspace_id', '=', ws)
    .where('id', '=', keyResult.id)
    .execute()
  await w.trx
    .updateTable('objectives')
    .set({ progress, updated_at: w.now })
    .where('workspace_id', '=', ws)
    .where('id', '=', objective.id)
    .execute()
  await syncResourceIndex(w.trx, ws, { ids: [objective.id] })

  const updated = { ...keyResult, current: input.value, updated_at: w.now }
  const answer = {
    ...presentCheckin({ ...checkin, author_visible: true }, w.deps.urls),
    key_result: presentKeyResult(updated, w.deps.urls),
    objective_progress: progress,
  }
  const { workspace_id: _, created_at: __, ...audited } = checkin
  await recordChange(w, {
    verb: 'okr.checkin',
    subjectId: objective.id,
    subjectType: 'okr',
    projectId: objective.project_id,
    objectId: checkin.id,
    changes:
      objective.progress === progress
        ? {}
        : { progress: { from: objective.progress, to: progress } },
    audit: {
      resourceId: checkin.id,
      resourceType: 'checkin',
      before: { key_result_current: keyResult.current, objective_progress: objective.progress },
      after: { ...audited, key_result_current: input.value, objective_progress: progress },
    },
    eventObject: answer,
  })
  return answer
}
