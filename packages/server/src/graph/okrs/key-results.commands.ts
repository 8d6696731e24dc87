import { sql } from 'kysely'
import type { Static } from 'typebox'
import { syncResourceIndex } from '../../access/resource-index.ts'
import { notFound } from '../../api/problem-catalogue.ts'
import type { FieldChange } from '../../db/tables/activity.table.ts'
import { idKind, newId } from '../../lib/ids.ts'
import { requireText, ruleBroken } from '../../writes/business-rule.ts'
import { recordChange, type WriteContext } from '../../writes/write-context.ts'
import {
  objectiveToEdit,
  requireEditor,
  requirePersonWriter,
  type StoredObjective,
  writtenObjective,
} from './edited-objective.ts'
import { presentKeyResult } from './okr-parts.present.ts'
import { findKeyResult, type KeyResultRow } from './okr-parts.queries.ts'
import { objectiveProgress } from './okr-progress.ts'
import {
  type CreateKeyResultBody,
  KEY_RESULTS_PER_OBJECTIVE,
  type KeyResultWritten,
  type UpdateKeyResultBody,
} from './okr-writes.schemas.ts'

type Written = Static<typeof KeyResultWritten>

/**
 * Adds a key result to an objective its caller may edit (access/objective-editors.ts), after the
 * others; it starts at its start, and the objective's progress is recomputed with it.
 */
export async function addKeyResult(
  w: WriteContext,
  objectiveId: string,
  body: Static<typeof CreateKeyResultBody>,
): Promise<Written> {
  const objective = await objectiveToEdit(w, objectiveId)
  requireText('/title', body.title)
  const start = body.start ?? 0
  if (body.target === start) throw ruleBroken('/target', 'must differ from start')
  const before = await writtenObjective(w, objectiveId)
  if (before.object.key_results.length >= KEY_RESULTS_PER_OBJECTIVE)
    throw ruleBroken(
      '',
      `An objective has at most ${KEY_RESULTS_PER_OBJECTIVE} key results, and this one has them all.`,
    )
  const ws = w.principal.workspaceId
  const row = {
    workspace_id: ws,
    id: newId('key_result'),
    objective_id: objectiveId,
    title: body.title,
    start,
    target: body.target,
    current: start,
    unit: body.unit ?? '',
    created_at: w.now,
    updated_at: w.now,
  }
  const inserted = await w.trx
    .insertInto('key_results')
    .values({
      ...row,
      position: sql<number>`(select coalesce(max(k.position) + 1, 0) from key_results k
        where k.workspace_id = ${ws} and k.objective_id = ${objectiveId})`,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  const progress = objectiveProgress([...before.object.key_results, row])
  return recordKeyResultChange(w, objective, before, inserted, progress, {
    before: null,
    after: auditedKeyResult(inserted),
  })
}

/**
 * Changes a key result's title, numbers or unit, for an editor of its objective; a change of its
 * start or target recomputes the objective's progress. A body that changes nothing records
 * nothing.
 */
export async function updateKeyResult(
  w: WriteContext,
  id: string,
  body: Static<typeof UpdateKeyResultBody>,
): Promise<Written> {
  requirePersonWriter(w)
  const keyResult =
    idKind(id) === 'key_result' ? await findKeyResult(w.trx, w.visibility, id) : undefined
  if (!keyResult) throw notFound()
  const ws = w.principal.workspaceId
  const objective = await w.trx
    .selectFrom('objectives')
    .selectAll()
    .where('workspace_id', '=', ws)
    .where('id', '=', keyResult.objective_id)
    .executeTakeFirstOrThrow()
  requireEditor(w, objective)
  requireText('/title', body.title)
  const after: KeyResultRow = {
    ...keyResult,
    title: body.title ?? keyResult.title,
    start: body.start ?? keyResult.start,
    target: body.target ?? keyResult.target,
    unit: body.unit ?? keyResult.unit,
    updated_at: w.now,
  }
  if (after.target === after.start)
    throw body.target === undefined
      ? ruleBroken('/start', 'must differ from target')
      : ruleBroken('/target', 'must differ from start')
  const changed = (['title', 'start', 'target', 'unit'] as const).filter(
    (field) => keyResult[field] !== after[field],
  )
  if (changed.length === 0)
    return { ...presentKeyResult(keyResult, w.deps.urls), objective_progress: objective.progress }

  const before = await writtenObjective(w, objective.id)
  await w.trx
    .updateTable('key_results')
    .set({
      title: after.title,
      start: after.start,
      target: after.target,
      unit: after.unit,
      updated_at: w.now,
    })
    .where('workspace_id', '=', ws)
    .where('id', '=', id)
    .execute()
  const progress = objectiveProgress(
    before.object.key_results.map((kr) => (kr.id === id ? after : kr)),
  )
  return recordKeyResultChange(w, objective, before, after, progress, {
    before: auditedKeyResult(keyResult),
    after: auditedKeyResult(after),
  })
}

/**
 * The rest of a key result's change: the objective's progress and index row (its text holds its
 * key results' titles), then its `okr.updated` entry, whose changes are the objective's
 * `key_results` before and after, and its progress when that moved.
 */
async function recordKeyResultChange(
  w: WriteContext,
  objective: StoredObjective,
  before: Awaited<ReturnType<typeof writtenObjective>>,
  keyResult: KeyResultRow,
  progress: number,
  audit: { before: Record<string, unknown> | null; after: Record<string, unknown> },
): Promise<Written> {
  const ws = w.principal.workspaceId
  await w.trx
    .updateTable('objectives')
    .set({ progress, updated_at: w.now })
    .where('workspace_id', '=', ws)
    .where('id', '=', objective.id)
    .execute()
  await syncResourceIndex(w.trx, ws, { ids: [objective.id] })
  const after = await writtenObjective(w, objective.id)
  const changes: Record<string, FieldChange> = {
    key_results: { from: before.object.key_results, to: after.object.key_results },
  }
  if (progress !== objective.progress) changes.progress = { from: objective.progress, to: progress }
  await recordChange(w, {
    verb: 'okr.updated',
    subjectId: objective.id,
    subjectType: 'okr',
    projectId: objective.project_id,
    objectId: keyResult.id,
    changes,
    audit: { resourceId: keyResult.id, resourceType: 'key_result', ...audit },
    eventObject: after.object,
  })
  return { ...presentKeyResult(keyResult, w.deps.urls), objective_progress: progress }
}

function auditedKeyResult(row: KeyResultRow): Record<string, unknown> {
  const { workspace_id: _, created_at: __, updated_at: ___, ...fields } = row
  return fields
}
