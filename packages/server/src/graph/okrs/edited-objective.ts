import type { Selectable } from 'kysely'
import type { Static } from 'typebox'
import { mayEditObjective } from '../../access/objective-editors.ts'
import { canOpen } from '../../access/visibility.ts'
import { notFound, ProblemError } from '../../api/problem-catalogue.ts'
import type { ObjectivesTable } from '../../db/tables/okr.table.ts'
import { idKind } from '../../lib/ids.ts'
import type { WriteContext } from '../../writes/write-context.ts'
import { presentOkr } from './okrs.present.ts'
import { listOkrs } from './okrs.queries.ts'
import type { OkrRecord } from './okrs.schemas.ts'

/*
 * What the writes of objectives and key results share: who may write them, the objective one
 * edits, and the objective as its writer, its event and its audit entry show it.
 */

/** The OKR record. */
export type Okr = Static<typeof OkrRecord>

/** An objective's row as stored. */
export type StoredObjective = Selectable<ObjectivesTable>

/**
 * Objectives are people's: a workspace token may not write one, whatever it names, so it is
 * refused before anything is looked up (as canvases are).
 */
export function requirePersonWriter(w: WriteContext): void {
  if (w.principal.actorKind !== 'person')
    throw new ProblemError(
      'forbidden',
      'Objectives are owned by people; a workspace token cannot create or edit one.',
    )
}

/**
 * The objective `id` names, for an edit: one the caller may open (else the one 404, as for an
 * unknown id, whatever the caller's role) and may edit (access/objective-editors.ts; else 403).
 */
export async function objectiveToEdit(
  w: WriteContext,
  id: string,
  pointer?: string,
): Promise<StoredObjective> {
  requirePersonWriter(w)
  if (idKind(id) !== 'okr' || !(await canOpen(w.trx, w.visibility, id))) throw notFound(pointer)
  const objective = await w.trx
    .selectFrom('objectives')
    .selectAll()
    .where('workspace_id', '=', w.principal.workspaceId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  requireEditor(w, objective)
  return objective
}

/** Refuses (403) a caller who can open the objective but may not edit it. */
export function requireEditor(w: WriteContext, objective: StoredObjective): void {
  if (!mayEditObjective(w.principal, objective))
    throw new ProblemError(
      'forbidden',
      "Only the objective's owner, the members of its team and the workspace's owners and admins may edit it.",
    )
}

/**
 * The objective as its writer sees it (`record`) and as its event carries it (`object`, every
 * link included: each webhook recipient is shown only the links it may open), read once.
 */
export async function writtenObjective(
  w: WriteContext,
  id: string,
): Promise<{ record: Okr; object: Okr }> {
  const [row] = await listOkrs(w.trx, w.visibility, { ids: [id] }, null, 1)
  if (!row) throw new Error(`objective ${id} is not visible to its writer`)
  const every = { owner_visible: true, team_visible: true, project_visible: true }
  return {
    record: presentOkr(row, w.deps.urls, w.now),
    object: presentOkr({ ...row, ...every }, w.deps.urls, w.now),
  }
}

/** An objective's fields as the audit log diffs them. */
export function auditedObjective(row: StoredObjective): Record<string, unknown> {
  const { workspace_id: _, created_at: __, updated_at: ___, ...fields } = row
  return { ...fields, closed_at: fields.closed_at?.toISOString() ?? null }
}
