import type { Static } from 'typebox'
import { bumpAclEpoch } from '../../access/resource-index.ts'
import { namedReference } from '../../api/named-reference.ts'
import { notFound } from '../../api/problem-catalogue.ts'
import { requireVisible } from '../../api/require-visible.ts'
import { idKind } from '../../lib/ids.ts'
import { recordChange, type WriteContext } from '../../writes/write-context.ts'
import { projectAsWriterSees } from './project-answer.ts'
import { openProject, requireSteward, requireStillOpen } from './projects.commands.ts'
import type { AddProjectMemberBody, ProjectRecord } from './projects.schemas.ts'

type Project = Static<typeof ProjectRecord>
type MemberType = 'person' | 'team' | 'integration'

/**
 * Adds a person, a team or an integration to a project: how a private project is shared. It
 * takes effect on the very next request, on every instance (the ACL epoch). Adding a member the
 * project already has changes nothing and records nothing.
 */
export async function addProjectMember(
  w: WriteContext,
  projectId: string,
  body: Static<typeof AddProjectMemberBody>,
): Promise<Project> {
  const project = await openProject(w, projectId)
  const [type, given] = memberGiven(body)
  const path = `/${type}_id`
  const memberId =
    type === 'integration' ? given : await namedReference(w.trx, w, type, given, path)
  await requireVisible(w.trx, w.visibility, [[path, type, memberId]])
  requireSteward(w, project, 'access')
  const inserted = await w.trx
    .insertInto('project_members')
    .values({
      workspace_id: project.workspace_id,
      project_id: projectId,
      [path.slice(1)]: memberId,
    })
    .onConflict((conflict) => conflict.doNothing())
    .returning('principal_id')
    .execute()
  if (inserted.length === 0) return projectAsWriterSees(w, projectId)
  await recordMembership(w, projectId, type, memberId, 'added')
  return projectAsWriterSees(w, projectId)
}

/**
 * Removes a direct member (a person, team or integration) from a project. One who belongs only
 * through a team is not a direct member: the 404 of an unknown member. The owner and the caller
 * must still be able to open the project afterwards.
 */
export async function removeProjectMember(
  w: WriteContext,
  projectId: string,
  memberId: string,
): Promise<Project> {
  const project = await openProject(w, projectId)
  const type = memberTypeOf(memberId)
  if (!type) throw notFound('/member_id')
  await requireVisible(w.trx, w.visibility, [['/member_id', type, memberId]])
  requireSteward(w, project, 'access')
  const removed = await w.trx
    .deleteFrom('project_members')
    .where('workspace_id', '=', project.workspace_id)
    .where('project_id', '=', projectId)
    .where('principal_id', '=', memberId)
    .returning('principal_id')
    .execute()
  if (removed.length === 0) throw notFound('/member_id')
  await bumpAclEpoch(w.trx, project.workspace_id)
  await requireStillOpen(w, project, '/member_id')
  await recordMembership(w, projectId, type, memberId, 'removed')
  return projectAsWriterSees(w, projectId)
}

// The one member a body names, and its type (the schema lets exactly one field through).
function memberGiven(body: Static<typeof AddProjectMemberBody>): [MemberType, string] {
  if (body.person_id !== undefined) return ['person', body.person_id]
  if (body.team_id !== undefined) return ['team', body.team_id]
  return ['integration', body.integration_id ?? '']
}

function memberTypeOf(id: string): MemberType | null {
  const kind = idKind(id)
  return kind === 'person' || kind === 'team' || kind === 'integration' ? kind : null
}

// The epoch moves with the membership; the activity entry names the member as a field whose
// value each reader is shown only when it may see it (activity/changed-people.ts).
async function recordMembership(
  w: WriteContext,
  projectId: string,
  type: MemberType,
  memberId: string,
  how: 'added' | 'removed',
): Promise<void> {
  const ws = w.principal.workspaceId
  if (how === 'added') await bumpAclEpoch(w.trx, ws)
  const member = { type: 'project_membership', project_id: projectId, member_id: memberId }
  await recordChange(w, {
    verb: how === 'added' ? 'project.member_added' : 'project.member_removed',
    subjectId: projectId,
    subjectType: 'project',
    projectId,
    changes: {
      member: how === 'added' ? { from: null, to: memberId } : { from: memberId, to: null },
    },
    audit: {
      resourceId: projectId,
      resourceType: 'project',
      before: how === 'added' ? null : { member_id: memberId, member_type: type },
      after: how === 'added' ? { member_id: memberId, member_type: type } : null,
    },
    eventObject: { ...member, member_type: type },
  })
}
