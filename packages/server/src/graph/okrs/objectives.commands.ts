import type { Static } from 'typebox'
import { syncResourceIndex } from '../../access/resource-index.ts'
import { canOpen } from '../../access/visibility.ts'
import { type NamedKind, namedReference } from '../../api/named-reference.ts'
import { ProblemError } from '../../api/problem-catalogue.ts'
import { requireVisible } from '../../api/require-visible.ts'
import type { FieldChange } from '../../db/tables/activity.table.ts'
import { newId } from '../../lib/ids.ts'
import { requireProjectInFence, requireText, ruleBroken } from '../../writes/business-rule.ts'
import { insertRecorded, recordChange, type WriteContext } from '../../writes/write-context.ts'
import {
  auditedObjective,
  type Okr,
  objectiveToEdit,
  requirePersonWriter,
  type StoredObjective,
  writtenObjective,
} from './edited-objective.ts'
import { storedSession } from './okr-health.ts'
import type { CreateOkrBody, UpdateOkrBody } from './okr-writes.schemas.ts'
import { presentOkr } from './okrs.present.ts'

/**
 * Creates an objective, and its key results in the same transaction (docs/api.md, "Writes").
 * Objectives are people's, and the company's: a workspace token or a guest may not create one.
 * Its owner (the caller unless given), team and project must be ones the caller may see, the
 * project inside the credential's fence; and the caller must be able to open what they make.
 */
export async function createObjective(
  w: WriteContext,
  body: Static<typeof CreateOkrBody>,
): Promise<Okr> {
  requirePersonWriter(w)
  if (!w.principal.isMember)
    throw new ProblemError(
      'forbidden',
      'Guests cannot create objectives; a member of the workspace can create one and make you its owner.',
    )
  requireText('/title', body.title)
  requireText('/session', body.session)
  const ownerId = (await reference(w, 'person', body.owner_id ?? 'me', '/owner_id')) as string
  const teamId = (await reference(w, 'team', body.team_id, '/team_id')) ?? null
  const projectId = (await reference(w, 'project', body.project_id, '/project_id')) ?? null
  requireProjectInFence(w.principal.fence, projectId)
  if (body.visibility === undefined && (await isPrivateProject(w, projectId)))
    throw ruleBroken(
      '/visibility',
      'must be given for an objective in a private project: `workspace` shows it to every member, beyond the project; `private` to its owner and team only',
    )
  const visibility = body.visibility ?? 'workspace'
  if (visibility === 'private' && !ownedByCaller(w, { owner_id: ownerId, team_id: teamId }))
    throw ruleBroken(
      '/visibility',
      'may be private only for an objective you own or whose team you are in: you could not open it',
    )
  const keyResults = (body.key_results ?? []).map((kr, i) => {
    requireText(`/key_results/${i}/title`, kr.title)
    const start = kr.start ?? 0
    if (kr.target === start) throw ruleBroken(`/key_results/${i}/target`, 'must differ from start')
    return { id: newId('key_result'), title: kr.title, start, target: kr.target, unit: kr.unit }
  })

  const row: StoredObjective = {
    workspace_id: w.principal.workspaceId,
    id: newId('okr'),
    title: body.title,
    session: storedSession(body.session),
    owner_id: ownerId,
    team_id: teamId,
    project_id: projectId,
    visibility,
    // Every key result starts at its start: none has progress yet.
    progress: 0,
    status: 'open',
    closed_at: null,
    created_at: w.now,
    updated_at: w.now,
  }
  const krRows = keyResults.map((kr, position) => ({
    workspace_id: row.workspace_id,
    id: kr.id,
    objective_id: row.id,
    title: kr.title,
    start: kr.start,
    target: kr.target,
    current: kr.start,
    unit: kr.unit ?? '',
    position,
    created_at: w.now,
    updated_at: w.now,
  }))
  // The event carries the objective as created, every link included (each webhook recipient is
  // shown only the links it may open).
  const object = presentOkr(
    {
      ...row,
      owner_visible: true,
      team_visible: true,
      project_visible: true,
      key_results: krRows.map(({ id, title, start, target, current, unit }) => ({
        id,
        title,
        start,
        target,
        current,
        unit,
        updated_at: w.now.toISOString(),
      })),
      confidence: null,
    },
    w.deps.urls,
    w.now,
  )
  await insertRecorded(w, w.trx.insertInto('objectives').values(row).returningAll(), {
    verb: 'okr.created',
    subjectId: row.id,
    subjectType: 'okr',
    projectId,
    audit: {
      resourceId: row.id,
      resourceType: 'okr',
      before: null,
      after: {
        ...auditedObjective(row),
        key_results: krRows.map(({ id, title, start, target, unit }) => ({
          id,
          title,
          start,
          target,
          unit,
        })),
      },
    },
    eventObject: object,
  })
  if (krRows.length > 0) {
    await w.trx.insertInto('key_results').values(krRows).execute()
    // Its index row's text holds its key results' titles: compiled again now they exist.
    await syncResourceIndex(w.trx, row.workspace_id, { ids: [row.id] })
  }
  return (await writtenObjective(w, row.id)).record
}

// The fields an edit may change, in the order its audit and activity list them.
const UPDATABLE = [
  'title',
  'session',
  'status',
  'visibility',
  'owner_id',
  'team_id',
  'project_id',
] as const

// The fields whose change the activity entry lists. A team's or project's id could name what a
// reader cannot open, so those changes are in the audit diff and the event's object only.
const LISTED = new Set<string>(['title', 'session', 'status', 'visibility', 'owner_id'])

// The fields that decide who may open the objective.
const ACCESS = ['visibility', 'owner_id', 'team_id'] as const

/**
 * Changes an objective's title, session, owner, team, project, visibility or status (docs/api.md,
 * "Writes"): `closed` closes it, `open` reopens it. Only its editors may (access/objective-editors.ts);
 * only the fields given change, and a body that changes nothing, as the caller sees the objective,
 * records nothing: null for a team or project the caller cannot see keeps it. A change of who may
 * open it is compiled into the resource index in the same transaction, and must leave it open to
 * the caller.
 */
export async function updateObjective(
  w: WriteContext,
  id: string,
  body: Static<typeof UpdateOkrBody>,
): Promise<Okr> {
  const before = await objectiveToEdit(w, id)
  requireText('/title', body.title)
  requireText('/session', body.session)
  const ownerId = await reference(w, 'person', body.owner_id, '/owner_id')
  const teamId = await reference(w, 'team', body.team_id, '/team_id')
  const projectId = await reference(w, 'project', body.project_id, '/project_id')
  if (projectId !== undefined) requireProjectInFence(w.principal.fence, projectId)
  const status = body.status ?? before.status
  const after: StoredObjective = {
    ...before,
    title: body.title ?? before.title,
    session: body.session === undefined ? before.session : storedSession(body.session),
    owner_id: ownerId ?? before.owner_id,
    team_id: await nextLink(w, teamId, before.team_id),
    project_id: await nextLink(w, projectId, before.project_id),
    visibility: body.visibility ?? before.visibility,
    status,
    closed_at: status === 'open' ? null : before.status === 'closed' ? before.closed_at : w.now,
    updated_at: w.now,
  }
  const changed = UPDATABLE.filter((field) => before[field] !== after[field])
  if (changed.length === 0) return (await writtenObjective(w, id)).record

  const ws = w.principal.workspaceId
  const { workspace_id: _, id: __, created_at: ___, ...set } = after
  await w.trx
    .updateTable('objectives')
    .set(set)
    .where('workspace_id', '=', ws)
    .where('id', '=', id)
    .execute()
  await syncResourceIndex(w.trx, ws, { ids: [id] })
  const closing = ACCESS.find((field) => changed.includes(field))
  if (closing && !(await canOpen(w.trx, w.visibility, id)))
    throw ruleBroken(
      `/${closing}`,
      'must leave the objective open to you: a private one opens only to its owner and the members of its team, and to a guest only one they own or whose team they are in',
    )
  const { record, object } = await writtenObjective(w, id)
  await recordChange(w, {
    verb: 'okr.updated',
    subjectId: id,
    subjectType: 'okr',
    projectId: after.project_id,
    // The owner's ids are stored whole; each reader is shown only the people it may see
    // (activity/changed-people.ts).
    changes: Object.fromEntries(
      changed
        .filter((field) => LISTED.has(field))
        .map((field): [string, FieldChange] => [field, { from: before[field], to: after[field] }]),
    ),
    audit: {
      resourceId: id,
      resourceType: 'okr',
      before: auditedObjective(before),
      after: auditedObjective(after),
    },
    eventObject: object,
  })
  return record
}

// An id, name or `me` given for a person, team or project, as the id it names: one the caller
// may see (else the one 404 at the field).
async function reference<T extends string | null | undefined>(
  w: WriteContext,
  kind: NamedKind,
  value: T,
  path: string,
): Promise<T | string> {
  const id = await namedReference(w.trx, w, kind, value, path)
  await requireVisible(w.trx, w.visibility, [[path, kind, id]])
  return id
}

// A team or project link after an edit: the one given, or the current one when the field is
// left out, or given as null while the current one is hidden from the caller (their record shows
// none already, so null changes nothing they see).
async function nextLink(
  w: WriteContext,
  given: string | null | undefined,
  current: string | null,
): Promise<string | null> {
  if (given === undefined) return current
  if (given === null && current !== null && !(await canOpen(w.trx, w.visibility, current)))
    return current
  return given
}

// Whether an objective so owned opens to the caller when private: theirs, or their team's.
function ownedByCaller(
  w: WriteContext,
  objective: { owner_id: string; team_id: string | null },
): boolean {
  const { actorId, teamIds } = w.principal
  return (
    objective.owner_id === actorId ||
    (objective.team_id !== null && teamIds.includes(objective.team_id))
  )
}

// Whether the objective's project (one the caller may open, checked before) is private: an
// objective there is not private by default, so the caller says which it is to be.
async function isPrivateProject(w: WriteContext, projectId: string | null): Promise<boolean> {
  if (projectId === null) return false
  const project = await w.trx
    .selectFrom('projects')
    .select('visibility')
    .where('workspace_id', '=', w.principal.workspaceId)
    .where('id', '=', projectId)
    .executeTakeFirst()
  return project?.visibility === 'private'
}
