import type { Static } from 'typebox'
import {
  mayChangeProject,
  type ProjectChange,
  projectCreationRefusal,
} from '../../access/project-stewards.ts'
import { bumpAclEpoch, syncProjectTree } from '../../access/resource-index.ts'
import { canOpen } from '../../access/visibility.ts'
import { namedReference } from '../../api/named-reference.ts'
import { notFound, ProblemError } from '../../api/problem-catalogue.ts'
import { requireVisible } from '../../api/require-visible.ts'
import type { ProjectsTable } from '../../db/tables/project.table.ts'
import { idKind, newId } from '../../lib/ids.ts'
import { requireText, ruleBroken } from '../../writes/business-rule.ts'
import { personCanOpen } from '../../writes/person-can-open.ts'
import { insertRecorded, recordChange, type WriteContext } from '../../writes/write-context.ts'
import { projectAsWriterSees } from './project-answer.ts'
import { presentProject } from './projects.present.ts'
import type { CreateProjectBody, ProjectRecord, UpdateProjectBody } from './projects.schemas.ts'

type Project = Static<typeof ProjectRecord>
type ProjectRow = Omit<ProjectsTable, 'created_at' | 'updated_at'> & {
  created_at: Date
  updated_at: Date
}

/**
 * Creates a project owned by the caller, who also belongs to it, so that a private project is
 * open to the one who made it (docs/permissions.md, "Who may change a project").
 */
export async function createProject(
  w: WriteContext,
  body: Static<typeof CreateProjectBody>,
): Promise<Project> {
  const refusal = projectCreationRefusal(w.principal)
  if (refusal) throw new ProblemError('forbidden', refusal)
  requireText('/name', body.name)
  const ws = w.principal.workspaceId
  const row: ProjectRow = {
    workspace_id: ws,
    id: newId('project'),
    name: body.name.trim(),
    description: body.description ?? '',
    status: body.status ?? 'active',
    visibility: body.visibility ?? 'workspace',
    owner_id: w.principal.actorId,
    created_at: w.now,
    updated_at: w.now,
  }
  const record = presentProject(
    { ...row, member_ids: [row.owner_id], team_ids: [], owner_visible: true },
    w.deps.urls,
  )
  await insertRecorded(w, w.trx.insertInto('projects').values(row).returningAll(), {
    verb: 'project.created',
    subjectId: row.id,
    subjectType: 'project',
    projectId: row.id,
    audit: {
      resourceId: row.id,
      resourceType: 'project',
      before: null,
      after: auditedProject(row, [row.owner_id]),
    },
    eventObject: record,
  })
  await w.trx
    .insertInto('project_members')
    .values({ workspace_id: ws, project_id: row.id, person_id: row.owner_id })
    .execute()
  await bumpAclEpoch(w.trx, ws)
  return projectAsWriterSees(w, row.id)
}

// The fields whose change decides who may open the project, and those that only describe it.
const ACCESS_FIELDS = ['visibility', 'owner_id'] as const
const DETAIL_FIELDS = ['name', 'description', 'status'] as const

/**
 * Changes a project's name, description, status, visibility or owner. Only the fields given
 * change, and a body that changes nothing records nothing. After the change its owner and the
 * caller must still be able to open it: a project nobody who runs it can open would be lost.
 */
export async function updateProject(
  w: WriteContext,
  projectId: string,
  body: Static<typeof UpdateProjectBody>,
): Promise<Project> {
  const before = await openProject(w, projectId)
  const input = {
    ...body,
    owner_id: await namedReference(w.trx, w, 'person', body.owner_id, '/owner_id'),
  }
  await requireVisible(w.trx, w.visibility, [['/owner_id', 'person', input.owner_id]])
  requireText('/name', input.name)
  const given = (fields: readonly string[]) => fields.some((field) => field in body)
  requireSteward(w, before, 'details', given(DETAIL_FIELDS))
  requireSteward(w, before, 'access', given(ACCESS_FIELDS))
  const after: ProjectRow = {
    ...before,
    name: input.name?.trim() ?? before.name,
    description: input.description ?? before.description,
    status: input.status ?? before.status,
    visibility: input.visibility ?? before.visibility,
    owner_id: input.owner_id ?? before.owner_id,
  }
  const fields = [...DETAIL_FIELDS, ...ACCESS_FIELDS].filter(
    (field) => after[field] !== before[field],
  )
  if (fields.length === 0) return projectAsWriterSees(w, projectId)

  await w.trx
    .updateTable('projects')
    .set({ ...after, updated_at: w.now })
    .where('workspace_id', '=', before.workspace_id)
    .where('id', '=', projectId)
    .execute()
  if (after.visibility !== before.visibility)
    await syncProjectTree(w.trx, before.workspace_id, projectId)
  await requireStillOpen(w, after, fields.includes('visibility') ? '/visibility' : '/owner_id')
  const record = await projectAsWriterSees(w, projectId)
  await recordChange(w, {
    verb: 'project.updated',
    subjectId: projectId,
    subjectType: 'project',
    projectId,
    // The owner's id is stored whole: each reader is shown only the people it may see
    // (activity/changed-people.ts).
    changes: Object.fromEntries(
      fields.map((field) => [field, { from: before[field], to: after[field] }]),
    ),
    audit: {
      resourceId: projectId,
      resourceType: 'project',
      before: auditedProject(before),
      after: auditedProject(after),
    },
    eventObject: record,
  })
  return record
}

/**
 * The project's row, when the caller may open it; the one 404 otherwise, before any rule is
 * asked, so that nothing in the answer depends on a project the caller cannot see.
 */
export async function openProject(w: WriteContext, projectId: string): Promise<ProjectRow> {
  if (idKind(projectId) !== 'project' || !(await canOpen(w.trx, w.visibility, projectId)))
    throw notFound()
  return w.trx
    .selectFrom('projects')
    .selectAll()
    .where('workspace_id', '=', w.principal.workspaceId)
    .where('id', '=', projectId)
    .forUpdate()
    .executeTakeFirstOrThrow()
}

/** A 403 unless the caller may make this kind of change to the project (when it makes one). */
export function requireSteward(
  w: WriteContext,
  project: Pick<ProjectRow, 'id' | 'owner_id'>,
  change: ProjectChange,
  asked = true,
): void {
  if (!asked) return
  const stewardship = {
    ownerId: project.owner_id,
    callerBelongs: w.principal.projectIds.includes(project.id),
  }
  if (mayChangeProject(w.principal, stewardship, change)) return
  throw new ProblemError(
    'forbidden',
    change === 'access'
      ? "Only the project's owner and the workspace's owners and admins may change who can open it."
      : "Only the project's members (not guests), its owner and the workspace's owners and admins may change it.",
  )
}

/**
 * A 422 unless the project's owner and the caller can both still open it, read in the write's
 * transaction after the change.
 */
export async function requireStillOpen(
  w: WriteContext,
  project: Pick<ProjectRow, 'workspace_id' | 'id' | 'owner_id'>,
  path = '/visibility',
): Promise<void> {
  const ws = project.workspace_id
  if (!(await personCanOpen(w.trx, ws, project.owner_id, project.id)))
    throw ruleBroken(
      path,
      project.owner_id === w.principal.actorId
        ? 'would leave you, its owner, unable to open the project'
        : "would leave the project's owner unable to open it; add them as a member first",
    )
  if (!(await personCanOpen(w.trx, ws, w.principal.actorId, project.id)))
    throw ruleBroken(path, 'would leave you unable to open the project; add yourself first')
}

/** A project as its audit entries show it: every field, and its direct members when known. */
export function auditedProject(
  row: ProjectRow,
  members?: readonly string[],
): Record<string, unknown> {
  const { workspace_id: _, created_at: __, updated_at: ___, ...fields } = row
  return members ? { ...fields, members } : fields
}
